// Juju's agent API takes a list of entities in every call. An agent here makes its
// calls one entity at a time, as its logic reads best; a Batch gathers those made
// within one turn of the event loop into one bulk call (the provisioner starting the
// machines of one pass, say), so the server runs one request and one transaction for
// them instead of one each. The gathering is DataLoader's (as src/db/read-together.ts
// uses it), with its cache off and its batches sent at the end of the turn.
import DataLoader from "dataloader";
import { ApiError } from "./connection.js";

export class Batch<T, R> {
  private readonly loader: DataLoader<T, R>;

  /**
   * `many` is the bulk call, answering each item in order, all or nothing; `one` the single call, made for an item
   * alone in its turn, and for each item of a bulk call refused as a whole (one item's refusal refuses them all), so
   * that each caller gets its own answer or refusal. At most `max` items go in one bulk call. Any other failure of a
   * bulk call (the connection's) fails each of its callers.
   */
  constructor(many: (items: T[]) => Promise<R[]>, one: (item: T) => Promise<R>, max: number) {
    // DataLoader rejects a caller whose answer is an Error.
    const oneByOne = (items: readonly T[]) => Promise.all(items.map((item) => one(item).catch(asError)));
    this.loader = new DataLoader<T, R>(
      async (items) => {
        if (items.length === 1) return oneByOne(items);
        try {
          return await many([...items]);
        } catch (error) {
          if (error instanceof ApiError) return oneByOne(items);
          throw error;
        }
      },
      { cache: false, maxBatchSize: max, batchScheduleFn: (send) => setImmediate(send) },
    );
  }

  /** Resolves with the item's answer, once the turn's call is made. */
  add(item: T): Promise<R> {
    return this.loader.load(item);
  }
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));
