// Which web pages may use the API through a browser. A browser sends the session cookie with a request any page
// makes to this server, and SameSite does not separate ports: to it, every page on the same host is the same site. So
// a page's origin is what tells the server's own pages (GraphiQL) from any other:
//
//   CORS        only origins on the allow-list (LIFELINE_ALLOWED_ORIGINS) are told they may read answers; none by
//               default. The server's own pages need no CORS.
//   cookie      a request the session cookie alone authenticates must come from a page of the server's own origin or
//               the allow-list, as its Origin (or, without one, Sec-Fetch-Site or Referer) says; else FORBIDDEN and
//               nothing runs (app.ts). A request with a bearer token is not at risk: a page cannot send a token it
//               was not given. One that says nothing of a page was not made by a browser.
//   WebSocket   an upgrade from a page is held to the same rule whatever its credentials: browsers send Origin on
//               every upgrade, and no CORS guards a socket's answers.

import type { IncomingHttpHeaders } from "node:http";
import type { CORSOptions } from "graphql-yoga";
import { shortQuote } from "../core/errors.js";

export interface OriginOptions {
  /** Origins besides the server's own whose pages may use the API from a browser (`scheme://host[:port]`); none by default. */
  allowedOrigins: readonly string[];
  /** The URL people reach the server at, behind a proxy: its origin is the server's own too (`https:` also makes the session cookie Secure). */
  publicUrl: string | null;
}

export const defaultOriginOptions: OriginOptions = { allowedOrigins: [], publicUrl: null };

/** A request's header by its lower-case name. */
export type HeaderOf = (name: string) => string | null | undefined;

export const headersOf =
  (headers: Headers | IncomingHttpHeaders): HeaderOf =>
  (name) => {
    if (headers instanceof Headers) return headers.get(name);
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

export class OriginPolicy {
  private readonly allowed: ReadonlySet<string>;
  private readonly publicOrigin: string | null;
  /** People reach the server over TLS (a proxy in front): what the browser holds should only travel so. */
  readonly servedOverHttps: boolean;

  constructor(options: OriginOptions) {
    this.allowed = new Set(options.allowedOrigins);
    this.publicOrigin = options.publicUrl ? originOf(options.publicUrl) : null;
    this.servedOverHttps = this.publicOrigin?.startsWith("https:") ?? false;
  }

  /** yoga's `cors`: an allowed origin may send credentials and read the answer; any other origin is told nothing. */
  readonly cors = (request: Request): CORSOptions => {
    const origin = request.headers.get("origin");
    return origin && this.allowed.has(origin) ? { origin, credentials: true } : false;
  };

  /**
   * The page a browser's request comes from when it is neither the server's own nor allowed; null for one that is,
   * and for a request that names no page (not a browser's). The server's own origin is the one the request reached
   * (its Host, over plain HTTP) or LIFELINE_PUBLIC_URL's.
   */
  foreignPage(header: HeaderOf): string | null {
    const accepted = (origin: string) => origin === `http://${header("host")}` || origin === this.publicOrigin || this.allowed.has(origin);
    const origin = header("origin");
    if (origin) return accepted(origin) ? null : origin;
    // Sent by browsers since 2023 (Safari last); "none" is a page the person opened themselves.
    const site = header("sec-fetch-site");
    if (site) return site === "same-origin" || site === "none" ? null : `a ${site} page`;
    const referer = header("referer");
    if (!referer) return null;
    const page = originOf(referer);
    return page && accepted(page) ? null : (page ?? "an unknown page");
  }
}

/** Why a foreign page's request is refused (FORBIDDEN: over HTTP, 403). */
export const foreignPageRefusal = (page: string) =>
  `refused: the request comes from a page of ${shortQuote(page)}, which is not this server's and not in LIFELINE_ALLOWED_ORIGINS; ` +
  "a browser session serves this server's own pages (GraphiQL), and scripts send a bearer token";
