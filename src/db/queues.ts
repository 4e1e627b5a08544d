// In-memory queues, one per key, each worked by one loop at a time: whoever comes while its key's queue is worked waits
// behind the others. The model's writers wait in one for their model's turn (src/model/write/turns.ts); each store has
// its own (connect.ts), so two stores' models never wait on each other.

export class Queues {
  private readonly byKey = new Map<string, unknown[]>();

  /**
   * Queues `entry` under `key`. Answers the queue when `entry` starts it: its caller then works it until it is empty,
   * and ends it (end). A key's entries are of one kind: its one caller's.
   */
  join<T>(key: string, entry: T): T[] | undefined {
    const queue = this.byKey.get(key) as T[] | undefined;
    if (queue) {
      queue.push(entry);
      return undefined;
    }
    const started = [entry];
    this.byKey.set(key, started);
    return started;
  }

  /** The queue under `key` is empty and no longer worked: the next entry starts a new one. */
  end(key: string): void {
    this.byKey.delete(key);
  }
}
