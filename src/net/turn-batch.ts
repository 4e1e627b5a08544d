// Bytes gathered for a socket during one turn of the event loop and written at its
// end as one Buffer. A change fanned out to hundreds of subscriptions multiplexed on
// one socket is hundreds of small frames; corked, each was still a write request of
// its own (an object, a callback, an entry of the writev), and their callbacks alone
// were a twentieth of the server's time at 10,000 subscriptions. Gathered, they are
// copied once into one Buffer and written in one request.
//
// Whoever else writes to the socket flushes what was gathered first (flushTurnBatch),
// so bytes leave in the order they were written.

/** What a batch needs of a socket (node:net's Socket). */
export interface BatchedSocket {
  write(chunk: Buffer): boolean;
  /** False once the socket has ended or been destroyed: what was gathered for it is dropped. */
  readonly writable: boolean;
}

const batches = new Map<BatchedSocket, { chunks: Buffer[]; bytes: number }>();
let scheduled = false;

/** Adds `chunks` to what `socket` is sent at the end of this turn. */
export function appendToTurnBatch(socket: BatchedSocket, ...chunks: Buffer[]): void {
  let batch = batches.get(socket);
  if (!batch) {
    batch = { chunks: [], bytes: 0 };
    batches.set(socket, batch);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flushAll);
    }
  }
  for (const chunk of chunks) {
    batch.chunks.push(chunk);
    batch.bytes += chunk.length;
  }
}

/** Writes now what this turn gathered for `socket`, if anything: before any other write to it. */
export function flushTurnBatch(socket: BatchedSocket): void {
  const batch = batches.get(socket);
  if (!batch) return;
  batches.delete(socket);
  if (socket.writable) socket.write(batch.chunks.length === 1 ? batch.chunks[0]! : Buffer.concat(batch.chunks, batch.bytes));
}

function flushAll(): void {
  scheduled = false;
  for (const socket of [...batches.keys()]) flushTurnBatch(socket);
}
