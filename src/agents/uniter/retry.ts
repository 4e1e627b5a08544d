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

/**
 * Where the automatic retry of the failed hook the agent is in stands (Juju: the uniter's retryHookTimerStarted, and
 * the RetryHookVersion its remote state counts the timer's firings in):
 *
 *   unplanned --plan--> planned --the timer fires--> due --a run of the failed hook begins--> unplanned
 *
 * Planned where the model does not retry hooks too: the timer stays disarmed, and only a resolution moves the agent,
 * but the model is asked once a failure, not once a pass.
 */
export type RetryStep = "unplanned" | "planned" | "due";

/** The retry of a failed hook, as a unit agent keeps it: its step, and the timer that makes it due. */
export class HookRetry {
  private current: RetryStep = "unplanned";
  private readonly timer: RetryTimer;

  /** `due` is told when the timer fires: one run of the failed hook is allowed. */
  constructor(options: HookRetryOptions, due: () => void) {
    this.timer = new RetryTimer(options, () => {
      this.current = "due";
      due();
    });
  }

  get step(): RetryStep {
    return this.current;
  }

  /**
   * In error, with nothing allowing a run: the retry of this failure is planned; with `armed`, the timer armed for the
   * schedule's next wait (Juju's StartRetryHookTimer), which it returns.
   */
  plan(armed: boolean): number | null {
    this.current = "planned";
    return armed ? this.timer.start() : null;
  }

  /**
   * A run of the failed hook has begun: what allowed it is spent. A resolution also disarms the timer and starts its
   * schedule over (Juju's StopRetryHookTimer); the timer's own run leaves the schedule where it is.
   */
  take(by: "resolution" | "timer"): void {
    this.current = "unplanned";
    if (by === "resolution") this.timer.reset();
  }

  /** The hook failed again: a planned retry was for the failure before, so the next pass plans the schedule's next wait. */
  failedAgain(): void {
    if (this.current === "planned") this.current = "unplanned";
  }

  /** Out of error (a hook committed succeeded, skipped or missing), or the agent stopping: the schedule starts over. */
  reset(): void {
    this.timer.reset();
    this.current = "unplanned";
  }
}
