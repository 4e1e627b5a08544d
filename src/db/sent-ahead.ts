// Reads sent on a connection before their answer is needed, so that they travel with the
// statements around them instead of taking a round trip of their own.

/**
 * A read sent now and awaited later, or never when something before it refused: never an unhandled rejection
 * meanwhile. Its failure is its awaiter's, not the transaction's (unlike a model operation's tx.defer): a read sent
 * ahead that is never awaited fails nothing. A postgres.js query is lazy: this also hands it to its connection now.
 */
export function sentAhead<P extends Promise<unknown>>(read: P): P {
  read.catch(() => {});
  return read;
}
