// Frames written to a socket within one turn of the event loop leave in one write:
// each write is a system call, and a process that sends many small frames at once (a
// change fanned out to many subscriptions, a thousand agents acting on one event) paid
// one call per frame. Latency is unchanged: the frames leave at the end of the turn
// they were sent in.

/** What corking needs of a socket (node:net's Socket). */
export interface Corkable {
  cork(): void;
  uncork(): void;
  /** Bytes written and not yet handed to the kernel (node's Writable). */
  readonly writableLength: number;
}

/** Sockets corked for this turn, with what they held unwritten when corked. */
const corked = new WeakMap<Corkable, number>();

/** Corks `socket` until this turn of the event loop ends, unless it is corked for this turn already. */
export function corkForTurn(socket: Corkable): void {
  if (corked.has(socket)) return;
  corked.set(socket, socket.writableLength);
  socket.cork();
  setImmediate(() => {
    corked.delete(socket);
    socket.uncork();
  });
}

/**
 * What `socket` held unwritten before this turn's writes: what its reader has not taken yet. A turn's own frames wait
 * for the turn's end by design (corked), so they are no sign of a slow reader: a change fanned out to a thousand
 * subscriptions on one socket writes far more in one turn than any reader is behind by.
 */
export function unwrittenBeforeTurn(socket: Corkable): number {
  return corked.get(socket) ?? socket.writableLength;
}
