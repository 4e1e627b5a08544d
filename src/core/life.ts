// "All such things start existence Alive. No such thing can ever change to an
// earlier state." (seed 001) The one definition of life, in lifecycle order;
// every life change in src/model goes through `advance`, and the database's
// trigger is the second line (drizzle/0002).
export const Life = { Alive: "alive", Dying: "dying", Dead: "dead" } as const;
export type Life = (typeof Life)[keyof typeof Life];

/** Every life, in lifecycle order (the database enum is declared in this order). */
export const lives = [Life.Alive, Life.Dying, Life.Dead] as const satisfies readonly Life[];

/** True when moving from `from` to `to` keeps life monotonic (staying put is allowed). */
export const canAdvance = (from: Life, to: Life) => lives.indexOf(to) >= lives.indexOf(from);

/** The new life, or a thrown bug report if a code path ever tried to move it backwards. */
export function advance(what: string, from: Life, to: Life): Life {
  if (!canAdvance(from, to)) throw new Error(`bug: ${what} cannot go from ${from} back to ${to}`);
  return to;
}
