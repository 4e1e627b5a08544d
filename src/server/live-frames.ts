// Live events written straight to a subscriber's socket, as the feed offers them.
//
// A change fanned out to a thousand graphql-ws subscriptions cost each one an iterator
// step through three async iterators, a JSON.stringify of its frame and a send through
// ws: about 20 µs a delivery, on the event loop the mutations share, so every watcher a
// user opened slowed every agent's write (a CPU profile of 1,000 subscribers at 200
// writes a second: graphql-ws 17%, socket writes 15%, microtasks 9%). A live stream
// (src/changes/stream.ts, deliverLive) instead hands each event here synchronously, while
// its graphql-ws iteration waits idle: the shared result (executed once per operation,
// shared-execution.ts) is written as a graphql-ws `next` frame with the payload's UTF-8
// made once (shared-frames.ts), gathered with the socket's other frames of the turn into
// one write (src/net/turn-batch.ts). Whatever cannot go this way (a socket whose reader left
// more than SENT_AHEAD_BYTES unread before this turn, a result with errors, an
// asynchronous execution) goes the iterator's way, which keeps the slow consumer's
// back-pressure.
import type { ExecutionResult } from "graphql";
import type { WebSocket } from "ws";
import type { LiveConsumer } from "../changes/stream.js";
import type { ChangeEvent } from "../changes/stream-event.js";
import { unwrittenBeforeTurn } from "../net/cork.js";
import { appendToTurnBatch } from "../net/turn-batch.js";
import { SENT_AHEAD_BYTES, tcpOf } from "./coalesce-writes.js";
import { payloadBytes, sharedFrameCounts } from "./shared-frames.js";
import { textFrameStart } from "./websocket-frame.js";

/** The end of every `next` frame, after its payload. */
const AFTER = Buffer.from("}");

/** Where a graphql-ws subscription's frames go: its socket and its id (set by app.ts on the operation's context). */
export interface LiveDestination {
  socket: WebSocket;
  subscriptionId: string;
}

/** The context's destination, when the operation came over graphql-ws. */
export function liveDestinationOf(context: unknown): LiveDestination | null {
  const { socket, subscriptionId } = (context ?? {}) as Partial<LiveDestination>;
  return socket && typeof subscriptionId === "string" ? { socket, subscriptionId } : null;
}

/** A stream's live consumer writing to `destination`; `resultOf` gives an event's shared result, or null when it cannot now. */
export function liveFrames(destination: LiveDestination, resultOf: (event: ChangeEvent) => ExecutionResult | null): LiveConsumer | null {
  const { socket } = destination;
  const tcp = tcpOf(socket);
  if (!tcp) return null;
  const before = `{"id":${JSON.stringify(destination.subscriptionId)},"type":"next","payload":`;
  const beforeBytes = Buffer.byteLength(before);
  return (event) => {
    if (socket.readyState !== socket.OPEN || socket.extensions !== "" || unwrittenBeforeTurn(tcp) > SENT_AHEAD_BYTES) return false;
    const result = resultOf(event);
    if (result === null || result.errors) return false;
    const payload = payloadBytes(result);
    appendToTurnBatch(tcp, textFrameStart(beforeBytes + payload.length + AFTER.length, before), payload, AFTER);
    sharedFrameCounts.sent++;
    sharedFrameCounts.live++;
    return true;
  };
}
