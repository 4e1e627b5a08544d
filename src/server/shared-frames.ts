// Sends the same serialized payload to every graphql-ws subscription that shares a
// result, instead of serializing it once per subscription.
//
// shared-execution.ts already hands every subscriber of an (event, operation,
// variables) the same ExecutionResult object. graphql-ws wraps it in a frame that
// differs per subscription only by its id, and JSON.stringify-s the whole frame each
// time. Here the frame's `payload` is replaced, while graphql-ws serializes it, by a
// token; the payload's JSON (made once per result, kept in a WeakMap) is spliced in
// where the token is, as the frame is handed to the socket. graphql-ws calls `send`
// synchronously right after serializing, so the payload waiting to be spliced always
// belongs to the frame being sent; a frame without the token is sent unchanged.
import type { ExecutionResult } from "graphql";
import type { WebSocket, WebSocketServer } from "ws";
import { isSharedResult } from "./shared-execution.js";

const TOKEN = "\u0000lifeline:shared-payload";
const TOKEN_JSON = JSON.stringify(TOKEN);
const serialized = new WeakMap<object, string>();
let waiting: string | null = null;

/** Counts, for diagnostics and the specification: payloads serialized, and frames they were spliced into. */
export const sharedFrameCounts = { serialized: 0, spliced: 0 };

/** graphql-ws `onNext`: lets a shared result through as itself (graphql-ws would copy it), so it keeps its identity. */
export function keepSharedResult(_ctx: unknown, _id: string, _payload: unknown, _args: unknown, result: ExecutionResult) {
  return !result.errors && isSharedResult(result) ? (result as Record<string, unknown>) : undefined;
}

/** graphql-ws `jsonMessageReplacer`: a shared payload becomes the token, its JSON waits for `send`. */
export function replaceSharedPayload(key: string, value: unknown): unknown {
  if (key !== "payload" || typeof value !== "object" || value === null || !isSharedResult(value)) return value;
  let json = serialized.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    serialized.set(value, json);
    sharedFrameCounts.serialized++;
  }
  waiting = json;
  return TOKEN;
}

/** Splices the waiting payload into the frame where its token is. */
export function spliceSharedPayload(frame: string): string {
  const json = waiting;
  waiting = null;
  if (json === null) return frame;
  const at = frame.lastIndexOf(TOKEN_JSON);
  if (at < 0) return frame;
  sharedFrameCounts.spliced++;
  return frame.slice(0, at) + json + frame.slice(at + TOKEN_JSON.length);
}

/** Wraps every socket's `send` so frames get their shared payload spliced in. */
export function spliceSharedFrames(wss: WebSocketServer): void {
  wss.on("connection", (ws: WebSocket) => {
    const send = ws.send.bind(ws) as (data: unknown, ...rest: unknown[]) => void;
    ws.send = ((data: unknown, ...rest: unknown[]) =>
      send(typeof data === "string" ? spliceSharedPayload(data) : data, ...rest)) as WebSocket["send"];
  });
}
