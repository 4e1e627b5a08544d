// Coalesces the WebSocket frames a connection is sent within one turn of the event
// loop into one write. When a change fans out to many subscriptions multiplexed on one
// socket, graphql-ws sends one frame per subscription; written one by one they cost a
// system call each, which profiling showed to be the largest cost of a delivery. Corking
// the TCP socket until the turn ends (corkForTurn) turns them into a single writev.
//
// graphql-ws waits for each frame's write callback before it sends the next (an
// operation's `next`, then its `complete`; a stream's next event), which, corked, comes
// only after the turn's write: a request's answer took two writes. While little is
// buffered the callback is answered at once, so what follows joins the same write;
// past SENT_AHEAD_BYTES the real callback is passed on, and a consumer that reads slowly
// holds its stream back as before (src/changes/stream.ts).
import type { Socket } from "node:net";
import type { WebSocket, WebSocketServer } from "ws";
import { corkForTurn } from "../net/cork.js";
import { flushTurnBatch } from "../net/turn-batch.js";

/** What may sit unwritten on a socket before graphql-ws is made to wait for the write again. */
export const SENT_AHEAD_BYTES = 64 * 1024;

export function coalesceWrites(wss: WebSocketServer): void {
  wss.on("connection", (ws: WebSocket) => {
    const tcp = tcpOf(ws);
    if (!tcp) return;
    const send = ws.send.bind(ws) as (...args: unknown[]) => void;
    ws.send = ((...args: unknown[]) => {
      const done = args.at(-1);
      if (typeof done !== "function") return writeCoalesced(tcp, undefined, () => send(...args));
      writeCoalesced(tcp, done as WriteDone, (callback) => send(...args.slice(0, -1), callback));
    }) as WebSocket["send"];
  });
}

export type WriteDone = (error?: Error | null) => void;

/** The TCP socket under a WebSocket, when it is one that can be corked. */
export function tcpOf(ws: WebSocket): Socket | undefined {
  const tcp = (ws as unknown as { _socket?: Socket })._socket;
  return tcp && typeof tcp.cork === "function" ? tcp : undefined;
}

/**
 * Runs `write` on `tcp` corked for this turn. `done`, the sender's write callback, is answered at once while little is
 * buffered (the write it waits for comes only after the turn), and passed on to `write` once the socket holds more.
 */
export function writeCoalesced(tcp: Socket, done: WriteDone | undefined, write: (callback: WriteDone) => void): void {
  flushTurnBatch(tcp); // live frames gathered this turn (live-frames.ts) go first: they were written first
  corkForTurn(tcp);
  if (done === undefined || tcp.writableLength > SENT_AHEAD_BYTES) return void write(done ?? ignoreWriteError);
  write(ignoreWriteError);
  queueMicrotask(() => done());
}

/** A write that fails fails because the socket closed: graphql-ws learns that from its close event. */
function ignoreWriteError(): void {}
