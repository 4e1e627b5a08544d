// Every deadline in the tests is a base, chosen for this two-core machine running the suite's two workers, times one
// multiplier: a loaded machine runs everything slower, so its deadlines stretch, and what waits still waits for an
// event or polls until its deadline. The multiplier is LIFELINE_TEST_TIME_SCALE, which vitest.config.ts sets for the
// workers from the load when the run starts unless it is given.
import { availableParallelism, loadavg } from "node:os";

/** The most a deadline stretches: a wait that hangs must still fail within the CI's time. */
const MOST = 4;

/**
 * 1 on a quiet machine; one more for each runnable process a core beyond the suite's own, by the last minute's load
 * average (four busy loops beside the suite on two cores: 3); at most MOST.
 */
export function timeScaleFromLoad(): number {
  const perCore = loadavg()[0]! / availableParallelism();
  return Math.min(MOST, Math.round((1 + perCore) * 10) / 10);
}

function timeScale(): number {
  const given = Number(process.env.LIFELINE_TEST_TIME_SCALE);
  return Number.isFinite(given) && given > 0 ? given : timeScaleFromLoad();
}

export const TIME_SCALE = timeScale();

/** A deadline of `ms` on a quiet machine, stretched by TIME_SCALE. */
export const scaled = (ms: number): number => Math.round(ms * TIME_SCALE);
