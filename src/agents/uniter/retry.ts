// The automatic retry of a failed hook, as Juju's uniter schedules it: a backoff timer
// (uniter.go `retryHookTimer`, built from worker/hookretrystrategy: 5 s, factor 2, at most
// 5 min) started when the agent finds its hook failed, each firing allowing one run of
// the hook; a success or a person's `resolved` stops it and starts the schedule over
// (worker/uniter/resolver.go `nextOpHookError`, StopRetryHookTimer is the timer's Reset).
// Juju adds jitter to each wait; Lifeline's waits are exact, so they can be specified.
import { type Clock, systemClock } from "../clock.js";

export interface HookRetryOptions {
  /** The first wait (Juju: 5 s); each one after doubles, up to `maxMs` (Juju: 5 min). */
  baseMs: number;
  maxMs: number;
  /** What the waits are measured on: Node's timers unless a test brings its own. */
  clock?: Clock;
}

export const JUJU_HOOK_RETRY: HookRetryOptions = { baseMs: 5_000, maxMs: 300_000 };

/** The wait before the `nth` automatic retry since the last success or resolution (1 for the first): base doubled n-1 times, capped. */
export function retryDelay({ baseMs, maxMs }: Pick<HookRetryOptions, "baseMs" | "maxMs">, nth: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, nth - 1), maxMs);
}

/** Juju's BackoffTimer as the uniter uses it: start() arms one firing after the schedule's next wait; reset() disarms it and starts the schedule over. */
export class RetryTimer {
  private cancel: (() => void) | null = null;
  /** Waits started since the last reset: the schedule's position. */
  private started = 0;

  constructor(
    private readonly options: HookRetryOptions,
    private readonly fire: () => void,
  ) {}

  /** Arms the timer (replacing an armed one) for the schedule's next wait, and returns that wait. */
  start(): number {
    this.disarm();
    const wait = retryDelay(this.options, ++this.started);
    this.cancel = (this.options.clock ?? systemClock).after(wait, () => {
      this.cancel = null;
      this.fire();
    });
    return wait;
  }

  /** Disarms it; the next start waits the first wait again. */
  reset(): void {
    this.disarm();
    this.started = 0;
  }

  get armed(): boolean {
    return this.cancel !== null;
  }

  private disarm(): void {
    this.cancel?.();
    this.cancel = null;
  }
}
