// Reads by key that arrive together go to PostgreSQL as one statement. Every request
// looks up its bearer token, and every stream its model by name: with a thousand agents
// those lookups were a round trip each, about a third of the server's round trips in the
// agents' benchmark. Requests that reach the server in one socket read are handled in the
// same turn of the event loop; their lookups are now one `= any($1)` read, made once that
// turn's promise jobs have run (DataLoader's batching, with its cache off: each read sees
// the database as it is when the batch runs, never an earlier answer).
import DataLoader from "dataloader";
import type { Database } from "./connect.js";

/** Keys a batch holds at most: one statement's array parameter, kept short. */
const MAX_BATCH = 256;

/**
 * `read` for one key at a time, its keys of one turn read together: `read` gets the distinct keys and answers in
 * their order (null where nothing is found). A failed batch fails each of its callers.
 */
export function readTogether<K, V>(read: (db: Database, keys: readonly K[]) => Promise<readonly (V | null)[]>) {
  const loaders = new WeakMap<Database, DataLoader<K, V | null>>();
  return (db: Database, key: K): Promise<V | null> => {
    let loader = loaders.get(db);
    if (!loader) {
      loader = new DataLoader<K, V | null>(
        async (keys) => {
          const distinct = [...new Set(keys)];
          const found = await read(db, distinct);
          const byKey = new Map(distinct.map((k, i) => [k, found[i] ?? null]));
          return keys.map((k) => byKey.get(k) ?? null);
        },
        { cache: false, maxBatchSize: MAX_BATCH },
      );
      loaders.set(db, loader);
    }
    return loader.load(key);
  };
}
