// The benchmark as a user of the API: GraphQL over HTTP with the admin token.
// Every request has a deadline: a saturated server must fail the run with a
// message, never hang it.
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
  return async <T>(query: string, variables: Record<string, unknown> = {}, timeoutMs = DEFAULT_TIMEOUT_MS) => {
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
        body: JSON.stringify({ query, variables }),
        signal: AbortSignal.timeout(Math.max(1, Math.round(timeoutMs))),
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === "TimeoutError") throw new ApiTimeout(timeoutMs, query);
      throw error;
    }
    const body = (await response.json()) as { data?: T; errors?: unknown[] };
    if (body.errors) throw new Error(`API: ${JSON.stringify(body.errors).slice(0, 2000)}`);
    return body.data!;
  };
}
