// Frames written to a socket within one turn of the event loop leave in one write:
// each write is a system call, and a process that sends many small frames at once (a
// change fanned out to many subscriptions, a thousand agents acting on one event) paid
// one call per frame. Latency is unchanged: the frames leave at the end of the turn
// they were sent in.

/** What corking needs of a socket (node:net's Socket). */
export interface Corkable {
  cork(): void;
  uncork(): void;
}

const corked = new WeakSet<Corkable>();

/** Corks `socket` until this turn of the event loop ends, unless it is corked for this turn already. */
export function corkForTurn(socket: Corkable): void {
  if (corked.has(socket)) return;
  corked.add(socket);
  socket.cork();
  setImmediate(() => {
    corked.delete(socket);
    socket.uncork();
  });
}
