// Time as agents wait on it: Node's timers in a process, a clock a test moves by hand in a spec
// (test/support/manual-clock.ts), so a wait of minutes is checked without sleeping.

export interface Clock {
  /** Calls `fire` once, after `ms`; the function returned cancels it (nothing happens if it already fired). */
  after(ms: number, fire: () => void): () => void;
}

export const systemClock: Clock = {
  after(ms, fire) {
    const timer = setTimeout(fire, ms);
    return () => clearTimeout(timer);
  },
};
