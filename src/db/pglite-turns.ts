// PGlite runs in this process and answers on promise jobs: a transaction of many
// statements ran from its first to its last without the event loop turning once, so
// no other client's request could even be read meanwhile (each waited for as many
// transactions as it needed turns of the loop to reach its own read: a burst of 32
// writes held a reader 0.9 s). Each statement of a transaction now gives the event
// loop a turn once it has answered. Other requests go as far as their own reads, which
// wait for the transaction's end (PGlite runs one at a time), and are served next.

import { setImmediate } from "node:timers";
import type { PGlite, Transaction } from "@electric-sql/pglite";

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The client's transactions give the event loop a turn after each statement. */
export function takeTurnsInTransactions(client: PGlite): void {
  const transaction = client.transaction.bind(client);
  client.transaction = <T>(callback: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      const { query, exec } = tx;
      tx.query = (async (...args: Parameters<typeof query>) => {
        const result = await query(...args);
        await turn();
        return result;
      }) as typeof query;
      tx.exec = async (...args: Parameters<typeof exec>) => {
        const result = await exec(...args);
        await turn();
        return result;
      };
      return callback(tx);
    });
}
