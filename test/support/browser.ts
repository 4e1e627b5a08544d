// What a browser does with Lifeline: opens a login link, then sends the session cookie with every request to the
// server, from whatever page makes it (the page's Origin along), as browsers do.
import { createLoginCode, type Database, type SessionLifetimes } from "../../src/model/index.js";
import { LOGIN_PATH } from "../../src/server/app.js";

/** Opens a fresh login link for the server at `url` (made at `now`); resolves with the session cookie it set (`name=value`). */
export async function logIn(db: Database, url: string, lifetimes?: SessionLifetimes, now?: number): Promise<string> {
  const login = new URL(LOGIN_PATH, url);
  login.searchParams.set("code", await createLoginCode(db, lifetimes, now));
  const response = await fetch(login, { redirect: "manual" });
  const cookie = response.headers.get("set-cookie");
  if (response.status !== 303 || !cookie) throw new Error(`the login link was refused: ${response.status}`);
  return cookie.split(";")[0]!;
}

/** A POST of `query` carrying `headers` (a cookie, a page's Origin, a bearer token…); resolves with the status and body. */
export async function postFrom(url: string, headers: Record<string, string>, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };
  return { status: response.status, body, codes: body.errors?.map((e) => e.extensions?.code) ?? [] };
}
