// A bounded number of holders at once, the others waiting in order of arrival.

export class Slots {
  private held = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {}

  /** Runs `work` holding a slot; a slot freed goes to the longest waiting. */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    if (this.held < this.size) this.held++;
    else await new Promise<void>((handOver) => this.waiting.push(handOver));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.held--;
    }
  }
}
