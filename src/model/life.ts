// "All such things start existence Alive. No such thing can ever change to an
// earlier state." (seed 001) Every life change in src/model goes through
// `advance`; the database's trigger is the second line (drizzle/0002).
export const Life = { Alive: "alive", Dying: "dying", Dead: "dead" } as const;
export type Life = (typeof Life)[keyof typeof Life];

const order: Record<Life, number> = { alive: 0, dying: 1, dead: 2 };

/** True when moving from `from` to `to` keeps life monotonic (staying put is allowed). */
export const canAdvance = (from: Life, to: Life) => order[to] >= order[from];

/** The new life, or a thrown bug report if a code path ever tried to move it backwards. */
export function advance(what: string, from: Life, to: Life): Life {
  if (!canAdvance(from, to)) throw new Error(`bug: ${what} cannot go from ${from} back to ${to}`);
  return to;
}
