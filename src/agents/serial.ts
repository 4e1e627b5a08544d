// An agent's reconciling pass, run one at a time: a poke while a pass runs asks
// for one more pass after it, so every change the agent heard of is acted on,
// and passes never overlap (two passes could both start an instance).
export class SerialPasses {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly failed: (error: unknown) => void,
  ) {}

  /** Runs a pass now, or once more after the pass in progress. */
  poke(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.pass().catch(this.failed);
      } while (this.again && !this.stopped);
      this.running = null;
    })();
  }

  /** No more passes; resolves once the one in progress is over. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }
}
