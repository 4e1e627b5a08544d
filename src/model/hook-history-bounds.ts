// How many hook runs each unit name keeps (issue 35: runs outlive their unit, so they are bounded by count, and by age:
// hook-history.ts). Read from the environment once: the prune's statement is built with it.
import { loggerFor } from "../core/log.js";

/** A positive whole number from the environment, or the default when unset or not one. */
function fromEnvironment(name: string, fallback: number): number {
  const given = process.env[name];
  if (given === undefined || given === "") return fallback;
  const value = Number(given);
  if (!Number.isInteger(value) || value < 1) {
    loggerFor("config").warn(
      { name, given, using: fallback },
      `${name}=${JSON.stringify(given)} is not a positive whole number: using ${fallback}`,
    );
    return fallback;
  }
  return value;
}

/** LIFELINE_HOOK_HISTORY_PER_UNIT: the runs kept per unit name (Juju's show-status-log shows the latest), default 100. */
export const hookHistoryPerUnit = () => fromEnvironment("LIFELINE_HOOK_HISTORY_PER_UNIT", 100);
