// "All such things start existence Alive. No such thing can ever change to an
// earlier state." (seed 001)
export const Life = { Alive: "alive", Dying: "dying", Dead: "dead" } as const;
export type Life = (typeof Life)[keyof typeof Life];

const order: Record<Life, number> = { alive: 0, dying: 1, dead: 2 };

/** True when moving from `from` to `to` keeps life monotonic (staying put is allowed). */
export const canAdvance = (from: Life, to: Life) => order[to] >= order[from];
