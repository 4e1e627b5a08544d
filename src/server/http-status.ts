// A subscription refused before its stream starts (unknown model, bad argument,
// no credentials) is answered over SSE with the status its code implies, not
// yoga's 500 for "an error that is not graphql-js's own". A 4xx also stops a
// browser's EventSource from reconnecting forever to a stream that cannot be;
// a 200 would not. graphql-ws is unaffected: it sends the errors on the one
// subscription. Errors without a code are faults and keep yoga's 500.

import type { ExecutionResult } from "graphql";
import { isAsyncIterable, type Plugin } from "graphql-yoga";
import type { ErrorCode } from "../core/errors.js";

const statusByCode: Partial<Record<ErrorCode, number>> = {
  NOT_FOUND: 404,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  // The revision to resume from is gone for good: subscribe again without `since`.
  RESYNC_REQUIRED: 410,
  CONTENTION: 409,
  REQUEST_TOO_LARGE: 413,
};
const faultCodes = new Set(["INTERNAL_SERVER_ERROR"]);

/** The status for a refusal's codes: the highest of them, 400 for any other code, null when one has no code. */
export function refusalStatus(result: ExecutionResult): number | null {
  let status = 0;
  for (const error of result.errors ?? []) {
    const code = error.extensions?.code;
    if (typeof code !== "string" || faultCodes.has(code)) return null;
    status = Math.max(status, statusByCode[code as ErrorCode] ?? 400);
  }
  return status || null;
}

export function useRefusalStatus(): Plugin {
  return {
    onResultProcess({ request, result, setResult }) {
      if (Array.isArray(result) || isAsyncIterable(result)) return;
      if (!request.headers.get("accept")?.includes("text/event-stream")) return;
      const status = refusalStatus(result);
      if (status) setResult({ ...result, extensions: { ...result.extensions, http: { status } } });
    },
  };
}

/**
 * A refusal made outside GraphQL (by the HTTP server itself, or on a WebSocket upgrade), in a GraphQL response's shape:
 * every answer carries a code, whoever gives it.
 */
export function refusalBody(
  code: ErrorCode | "BAD_REQUEST" | "INTERNAL_SERVER_ERROR",
  message: string,
  details: Record<string, unknown> = {},
): string {
  return JSON.stringify({ errors: [{ message, extensions: { code, ...details } }] });
}

/** yoga answers a POST in a media type it cannot read with a bare 415; this gives it a body with a code, as every other refusal has. */
export function useCodedMediaTypeRefusal(): Plugin {
  return {
    onResponse({ response, setResponse, fetchAPI }) {
      if (response.status !== 415 || response.headers.get("content-type")) return;
      const body = refusalBody("BAD_REQUEST", "send the request as application/json (or GET with ?query=)");
      setResponse(new fetchAPI.Response(body, { status: 415, headers: { "content-type": "application/json; charset=utf-8" } }));
    },
  };
}
