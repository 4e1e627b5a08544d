// The benchmark as a user of the API: GraphQL over HTTP with the admin token.
// Every request has a deadline: a saturated server must fail the run with a
// message, never hang it.
//
// Requests go through node:http on keep-alive sockets, not fetch: undici's fetch
// cost the client 0.1 to 0.5 ms a request more on this machine (`{ __typename }`:
// p50 0.53 to 0.91 ms by fetch, 0.42 ms by http.request, same server), CPU that a
// 2-core machine takes from the server and PostgreSQL under load.
import http from "node:http";
import { ADMIN_TOKEN } from "./lifeline-process.js";

export type Api = <T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>, timeoutMs?: number) => Promise<T>;

/** How long a request may wait for its answer unless the caller says otherwise. */
const DEFAULT_TIMEOUT_MS = 120_000;

/** The server did not answer in time. */
export class ApiTimeout extends Error {
  constructor(timeoutMs: number, query: string) {
    super(`API: no answer within ${(timeoutMs / 1000).toFixed(0)} s to ${query.replace(/\s+/g, " ").slice(0, 80)}`);
    this.name = "ApiTimeout";
  }
}

/**
 * POSTs one GraphQL request on `agent`'s keep-alive sockets; resolves with `data`, and throws the response's errors,
 * a response that is not GraphQL's, or an ApiTimeout, each naming `what` it was.
 */
export function postGraphql<T>(
  url: URL,
  agent: http.Agent,
  what: string,
  query: string,
  variables: Record<string, unknown>,
  timeoutMs: number,
): Promise<T> {
  const body = JSON.stringify({ query, variables });
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          authorization: `Bearer ${ADMIN_TOKEN}`,
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", fail);
        res.on("end", () => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString();
          let parsed: { data?: T; errors?: unknown[] };
          try {
            parsed = JSON.parse(text);
          } catch {
            return reject(new Error(`${what}: HTTP ${res.statusCode}, not JSON: ${text.slice(0, 500)}`));
          }
          if (parsed.errors) return reject(new Error(`${what}: ${JSON.stringify(parsed.errors).slice(0, 2000)}`));
          if (res.statusCode !== 200 || !parsed.data) return reject(new Error(`${what}: HTTP ${res.statusCode}: ${text.slice(0, 500)}`));
          resolve(parsed.data);
        });
      },
    );
    function fail(error: Error) {
      clearTimeout(timer);
      reject(error);
    }
    const timer = setTimeout(() => req.destroy(new ApiTimeout(timeoutMs, `${what}: ${query}`)), Math.max(1, Math.round(timeoutMs)));
    req.on("error", fail);
    req.end(body);
  });
}

/** How long a kept socket may idle: under the server's keep-alive timeout (src/server/connection-limits.ts). */
const IDLE_SOCKET_MS = 4_000;

/** Queries and mutations against `url`; a response with errors throws them. */
export function apiAt(url: string): Api {
  const target = new URL(url);
  // One socket per request in flight, kept for the next: concurrent clients never queue behind each other here. A
  // socket left idle is closed before the server closes it (its keep-alive timeout, 5 s): reused just as the server
  // closed it, a request met "socket hang up" (a removeMachine after the removal phase's idle seconds, once).
  const agent = new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS });
  return <T>(query: string, variables: Record<string, unknown> = {}, timeoutMs = DEFAULT_TIMEOUT_MS) =>
    postGraphql<T>(target, agent, "API", query, variables, timeoutMs);
}
