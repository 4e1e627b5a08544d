// The login link's route: `/login?code=…` opens the link once for a session cookie and sends the browser on to
// the status page (`/`, src/server/ui.ts), as Jupyter's token URL does (src/model/sessions.ts says how long each lives).
import type { IncomingMessage, ServerResponse } from "node:http";
import { type Database, redeemLoginCode, type SessionLifetimes } from "../model/index.js";
import { SESSION_COOKIE } from "./authentication.js";
import { refusalBody } from "./http-status.js";

export const LOGIN_PATH = "/login";

export interface LoginOptions {
  sessions: SessionLifetimes;
  /** The cookie goes over TLS only (LIFELINE_PUBLIC_URL is https). */
  secure: boolean;
  /** The server's clock (tests move it). */
  now: number;
}

/** The session cookie: HttpOnly and SameSite=Strict (authentication.ts), gone from the browser when the session ends at the latest. */
const sessionCookie = (token: string, { sessions, secure }: LoginOptions) =>
  `${SESSION_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${Math.floor(sessions.maxMs / 1000)}${secure ? "; Secure" : ""}`;

export async function logIn(db: Database, target: string, req: IncomingMessage, res: ServerResponse, options: LoginOptions): Promise<void> {
  const code = new URL(req.url ?? "", "http://lifeline").searchParams.get("code") ?? "";
  const token = await redeemLoginCode(db, code, options.sessions, options.now).catch(() => null);
  if (!token) {
    res.writeHead(401, { "content-type": "application/json; charset=utf-8" });
    const message =
      "this login link has been used, replaced by a newer one, or has expired: restart lifeline for a new one, or send a bearer token";
    res.end(refusalBody("UNAUTHENTICATED", message));
    return;
  }
  res.writeHead(303, { "set-cookie": sessionCookie(token, options), location: target });
  res.end();
}
