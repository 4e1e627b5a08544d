// Sends the same serialized payload to every graphql-ws subscription that shares a
// result, instead of serializing it once per subscription, and without copying it
// into each subscription's frame.
//
// shared-execution.ts already hands every subscriber of an (event, operation,
// variables) the same ExecutionResult object. graphql-ws wraps it in a frame that
// differs per subscription only by its id, and JSON.stringify-s the whole frame each
// time. Here the frame's `payload` is replaced, while graphql-ws serializes it, by a
// token; the payload's UTF-8 (made once per result, kept in a WeakMap) waits for the
// frame's `send`, which graphql-ws calls synchronously right after serializing, so the
// payload waiting always belongs to the frame being sent.
//
// The frame then goes to the TCP socket in three pieces: its header with the text
// before the token, the shared payload Buffer itself, and the text after. Spliced into
// one string per frame, every delivery copied the payload twice (the string, then its
// UTF-8), and at 10,000 subscriptions garbage collection took a third of the server's
// time. Writing beside ws's Sender is sound while the connection has no extension
// (no permessage-deflate, which the server does not offer) and sends no fragments or
// Blobs: the Sender then writes each frame synchronously and queues nothing. Otherwise
// the frame is spliced and sent through ws.
import type { Socket } from "node:net";
import type { ExecutionResult } from "graphql";
import type { WebSocket, WebSocketServer } from "ws";
import { tcpOf, type WriteDone, writeCoalesced } from "./coalesce-writes.js";
import { isSharedResult } from "./shared-results.js";
import { textFrame, textFrameStart } from "./websocket-frame.js";

/** Payloads up to this size are copied into their frame, written whole; larger ones go out as the shared Buffer itself. */
const COPIED_PAYLOAD_BYTES = 4096;

const TOKEN = "\u0000lifeline:shared-payload";
const TOKEN_JSON = JSON.stringify(TOKEN);
const serialized = new WeakMap<object, Buffer>();
let waiting: Buffer | null = null;

/**
 * Counts, for diagnostics and the specification: payloads serialized, frames they were sent in, and of those the ones
 * a live stream wrote itself (live-frames.ts), past graphql-ws.
 */
export const sharedFrameCounts = { serialized: 0, sent: 0, live: 0 };

/** graphql-ws `onNext`: lets a shared result through as itself (graphql-ws would copy it), so it keeps its identity. */
export function keepSharedResult(_ctx: unknown, _id: string, _payload: unknown, _args: unknown, result: ExecutionResult) {
  return !result.errors && isSharedResult(result) ? (result as Record<string, unknown>) : undefined;
}

/** A shared result's JSON as UTF-8, made once however many frames carry it. */
export function payloadBytes(result: object): Buffer {
  let json = serialized.get(result);
  if (json === undefined) {
    json = Buffer.from(JSON.stringify(result));
    serialized.set(result, json);
    sharedFrameCounts.serialized++;
  }
  return json;
}

/**
 * Writes a text frame of `before`, the shared `payload` and `after` to the TCP socket under a WebSocket, corked for the
 * turn: a small payload copied into one Buffer with the rest, a large one as the shared Buffer itself.
 */
export function writeFrame(tcp: Socket, before: string, payload: Buffer, after: string, done?: WriteDone): void {
  sharedFrameCounts.sent++;
  if (payload.length <= COPIED_PAYLOAD_BYTES) {
    const frame = textFrame(before, payload, after);
    writeCoalesced(tcp, done, (callback) => tcp.write(frame, callback));
    return;
  }
  const start = textFrameStart(Buffer.byteLength(before) + payload.length + Buffer.byteLength(after), before);
  writeCoalesced(tcp, done, (callback) => {
    tcp.write(start);
    tcp.write(payload);
    tcp.write(after, callback);
  });
}

/** graphql-ws `jsonMessageReplacer`: a shared payload becomes the token, its JSON waits for `send`. */
export function replaceSharedPayload(key: string, value: unknown): unknown {
  if (key !== "payload" || typeof value !== "object" || value === null || !isSharedResult(value)) return value;
  waiting = payloadBytes(value);
  return TOKEN;
}

/** Wraps every socket's `send` so a frame carrying a shared payload is written with it, uncopied. */
export function sendSharedFrames(wss: WebSocketServer): void {
  wss.on("connection", (ws: WebSocket) => {
    const send = ws.send.bind(ws) as (data: unknown, ...rest: unknown[]) => void;
    const tcp = tcpOf(ws);
    ws.send = ((data: unknown, ...rest: unknown[]) => {
      const payload = waiting;
      waiting = null;
      const at = payload === null || typeof data !== "string" ? -1 : data.lastIndexOf(TOKEN_JSON);
      if (at < 0) return send(data, ...rest);
      const before = (data as string).slice(0, at);
      const after = (data as string).slice(at + TOKEN_JSON.length);
      if (!tcp || ws.extensions !== "" || ws.readyState !== ws.OPEN) {
        sharedFrameCounts.sent++;
        return send(before + payload + after, ...rest);
      }
      const done = rest.at(-1);
      writeFrame(tcp, before, payload!, after, typeof done === "function" ? (done as WriteDone) : undefined);
    }) as WebSocket["send"];
  });
}
