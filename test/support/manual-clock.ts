// A clock that moves only when a test moves it: agents' timers (src/agents/clock.ts)
// fire in `advance`, in order, so a spec steps through waits of minutes at once.
import type { Clock } from "../../src/agents/clock.js";

interface Timer {
  due: number;
  fire: () => void;
}

export class ManualClock implements Clock {
  private now = 0;
  private readonly timers = new Set<Timer>();

  after(ms: number, fire: () => void): () => void {
    const timer = { due: this.now + ms, fire };
    this.timers.add(timer);
    return () => this.timers.delete(timer);
  }

  /** How long until each armed timer fires, soonest first. */
  waits(): number[] {
    return [...this.timers].map((t) => t.due - this.now).sort((a, b) => a - b);
  }

  /** Moves time on by `ms`, firing every timer that comes due, in order. */
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const next = [...this.timers].filter((t) => t.due <= until).sort((a, b) => a.due - b.due)[0];
      if (!next) break;
      this.timers.delete(next);
      this.now = next.due;
      next.fire();
    }
    this.now = until;
  }
}
