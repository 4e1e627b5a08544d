// An agent's reconciling pass, run one at a time: a poke while a pass runs asks
// for one more pass after it, so every change the agent heard of is acted on,
// and passes never overlap (two passes could both start an instance).
//
// A pass that failed for a reason that passes (the database out of reach, say: the API
// answers UNAVAILABLE) runs again by itself, after 1 s, doubling to 30 s, until one
// succeeds: nothing else would poke it when no change comes meanwhile. As Juju's
// dependency engine restarts a failed worker after a delay.
import type { Clock } from "./clock.js";
import { RetryTimer } from "./uniter/retry.js";

/** The waits before running a failed pass again: 1 s, doubling to 30 s, reset by a pass that succeeds. */
export const PASS_RETRY = { baseMs: 1_000, maxMs: 30_000 };

export interface SerialPassesOptions {
  /** Whether a failure passes by itself, so that the pass runs again after a wait. */
  retryable?: (error: unknown) => boolean;
  /** What the waits are measured on (tests bring their own). */
  clock?: Clock;
}

export class SerialPasses {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly retry: RetryTimer;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly failed: (error: unknown) => void,
    private readonly options: SerialPassesOptions = {},
  ) {
    this.retry = new RetryTimer({ ...PASS_RETRY, ...(options.clock ? { clock: options.clock } : {}) }, () => this.poke());
  }

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
        await this.pass().then(
          () => this.retry.reset(),
          (error: unknown) => {
            this.failed(error);
            if (!this.stopped && this.options.retryable?.(error)) this.retry.start();
          },
        );
      } while (this.again && !this.stopped);
      this.running = null;
    })();
  }

  /** No more passes; resolves once the one in progress is over. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.retry.reset();
    await this.running;
  }
}
