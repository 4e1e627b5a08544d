// The request slots a process's agents share, and the gathering of their calls at the slot. While every slot is busy,
// calls wait here in order; when one frees, the next call goes, and if its field has a bulk form (a Gathered call) the
// calls of the same field and model waiting behind it go with it, as one bulk call standing for their agents. They
// were waiting anyway (a saturated process has thousands of calls queued, nearly all of one or two fields at a
// time), so gathering adds no wait, unlike gathering a turn's calls did (docs/decisions.md, "Gathered at the slot").
// With a slot free, a call goes at once and alone.

/** A call of a field with a bulk form, as agents make it one entity at a time. */
export interface Gathered<I, R> {
  /** The call for one agent's item, sent with that agent's token. */
  one(item: I, token: string): Promise<R>;
  /** The bulk call for several agents' items, each with its agent's token, answering each in order, all or nothing. */
  many(items: readonly I[], tokens: readonly string[]): Promise<R[]>;
  /** Whether a refusal of the bulk call is one to ask item by item (each agent then gets its own answer). */
  refusedAsAWhole(error: unknown): boolean;
  /** The most items one bulk call takes (the API's limit). */
  readonly most: number;
}

interface Waiting {
  /** A plain request. */
  run?: () => Promise<unknown>;
  /** A gathered call: its field's kind, what it is gathered by (its model), its item and agent. */
  gathered?: { kind: Gathered<unknown, unknown>; group: string; item: unknown; token: string };
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class RequestSlots {
  private active = 0;
  private queue: Waiting[] = [];

  constructor(private readonly size: number) {}

  /** Runs `request` once a slot is free. */
  run<R>(request: () => Promise<R>): Promise<R> {
    return this.enqueue({ run: request });
  }

  /** Makes `kind`'s call for `item` as the agent whose token this is, gathered with others of its kind and `group` waiting beside it. */
  gather<I, R>(kind: Gathered<I, R>, group: string, item: I, token: string): Promise<R> {
    return this.enqueue({ gathered: { kind: kind as Gathered<unknown, unknown>, group, item, token } });
  }

  /** Calls waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  private enqueue<R>(call: Omit<Waiting, "resolve" | "reject">): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ ...call, resolve: resolve as (value: unknown) => void, reject });
      this.next();
    });
  }

  private next(): void {
    while (this.active < this.size && this.queue.length) {
      const first = this.queue.shift()!;
      const calls = first.gathered ? [first, ...this.takeAlike(first)] : [first];
      this.active++;
      void this.send(calls).finally(() => {
        this.active--;
        this.next();
      });
    }
  }

  /** The waiting calls of `first`'s kind and group, up to its bulk call's size, taken out of the queue in order. */
  private takeAlike(first: Waiting): Waiting[] {
    const { kind, group } = first.gathered!;
    const taken: Waiting[] = [];
    const left: Waiting[] = [];
    for (const call of this.queue) {
      if (taken.length < kind.most - 1 && call.gathered?.kind === kind && call.gathered.group === group) taken.push(call);
      else left.push(call);
    }
    if (taken.length) this.queue = left;
    return taken;
  }

  private async send(calls: readonly Waiting[]): Promise<void> {
    const [first] = calls;
    if (first!.run) return settle(first!, first!.run());
    const { kind } = first!.gathered!;
    if (calls.length === 1) return settle(first!, kind.one(first!.gathered!.item, first!.gathered!.token));
    const items = calls.map((c) => c.gathered!.item);
    try {
      const answers = await kind.many(
        items,
        calls.map((c) => c.gathered!.token),
      );
      for (const [i, call] of calls.entries()) call.resolve(answers[i]);
    } catch (error) {
      if (!kind.refusedAsAWhole(error)) {
        for (const call of calls) call.reject(error);
        return;
      }
      // One item's refusal refused them all: each agent asks for its own, so each gets its own answer.
      await Promise.all(calls.map((call) => settle(call, kind.one(call.gathered!.item, call.gathered!.token))));
    }
  }
}

async function settle(call: Waiting, answer: Promise<unknown>): Promise<void> {
  try {
    call.resolve(await answer);
  } catch (error) {
    call.reject(error);
  }
}
