// Juju's agent API takes a list of entities in every call. An agent here makes its
// calls one entity at a time, as its logic reads best; a Batch gathers those made
// within one turn of the event loop into one bulk call (the provisioner starting the
// machines of one pass, say), so the server runs one request and one transaction for
// them instead of one each.
import { ApiError } from "./connection.js";

interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export class Batch<T, R> {
  private waiting: Waiting<T, R>[] = [];

  /**
   * `many` is the bulk call, answering each item in order, all or nothing; `one` the single call, made for an item
   * alone in its turn, and for each item of a bulk call refused as a whole (one item's refusal refuses them all), so
   * that each caller gets its own answer or refusal. At most `max` items go in one bulk call.
   */
  constructor(
    private readonly many: (items: T[]) => Promise<R[]>,
    private readonly one: (item: T) => Promise<R>,
    private readonly max: number,
  ) {}

  /** Resolves with the item's answer, once the turn's call is made. */
  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (this.waiting.length === 0) setImmediate(() => this.flush());
      this.waiting.push({ item, resolve, reject });
    });
  }

  private flush(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (let i = 0; i < waiting.length; i += this.max) void this.send(waiting.slice(i, i + this.max));
  }

  private async send(calls: Waiting<T, R>[]): Promise<void> {
    if (calls.length > 1) {
      try {
        const results = await this.many(calls.map((call) => call.item));
        for (const [i, call] of calls.entries()) call.resolve(results[i]!);
        return;
      } catch (error) {
        if (!(error instanceof ApiError)) {
          for (const call of calls) call.reject(error);
          return;
        }
      }
    }
    await Promise.all(calls.map((call) => this.one(call.item).then(call.resolve, call.reject)));
  }
}
