// The benchmark as a user of the API: GraphQL over HTTP with the admin token.
// Every request has a deadline: a saturated server must fail the run with a
// message, never hang it.
//
// Requests go through node:http on keep-alive sockets, not fetch: undici's fetch
// cost the client about 0.5 ms a request on this machine (`{ __typename }`: p50
// 0.91 ms by fetch, 0.43 ms by http.request, same server, same run), which the
// latency figure counted as the server's, and whose CPU the 2-core machine took
// from the server and PostgreSQL under load.
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

/** Queries and mutations against `url`; a response with errors throws them. */
export function apiAt(url: string): Api {
  const target = new URL(url);
  // One socket per request in flight, kept for the next: concurrent clients never queue behind each other here.
  const agent = new http.Agent({ keepAlive: true });
  return <T>(query: string, variables: Record<string, unknown> = {}, timeoutMs = DEFAULT_TIMEOUT_MS) =>
    new Promise<T>((resolve, reject) => {
      const body = JSON.stringify({ query, variables });
      const request = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: "POST",
          agent,
          headers: {
            "content-type": "application/json",
            accept: "application/json",
            authorization: `Bearer ${ADMIN_TOKEN}`,
            "content-length": Buffer.byteLength(body),
          },
        },
        (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => {
            text += chunk;
          });
          response.on("error", reject);
          response.on("end", () => {
            clearTimeout(deadline);
            try {
              const answer = JSON.parse(text) as { data?: T; errors?: unknown[] };
              if (answer.errors) reject(new Error(`API: ${JSON.stringify(answer.errors).slice(0, 2000)}`));
              else resolve(answer.data!);
            } catch {
              reject(new Error(`API: HTTP ${response.statusCode}, not JSON: ${text.slice(0, 200)}`));
            }
          });
        },
      );
      const deadline = setTimeout(
        () => {
          request.destroy();
          reject(new ApiTimeout(timeoutMs, query));
        },
        Math.max(1, Math.round(timeoutMs)),
      );
      request.on("error", (error) => {
        clearTimeout(deadline);
        reject(error);
      });
      request.end(body);
    });
}
