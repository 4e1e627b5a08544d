// What the controller holds right now across every model, for /metrics: counts read when Prometheus scrapes.
import { count, isNotNull, lte } from "drizzle-orm";
import type { Database } from "../db/connect.js";
import { cleanups, machines, units } from "../db/schema.js";

export interface ControllerGauges {
  /** Cleanups queued, and of those the ones due now (the cleaner's backlog). */
  cleanupsQueued: number;
  cleanupsDue: number;
  /** Agents marked lost (Juju's "agent lost"): units' and machines'. */
  unitAgentsLost: number;
  machineAgentsLost: number;
}

export async function controllerGauges(db: Database, now = new Date()): Promise<ControllerGauges> {
  const [[queued], [due], [unitsLost], [machinesLost]] = await Promise.all([
    db.select({ n: count() }).from(cleanups),
    db.select({ n: count() }).from(cleanups).where(lte(cleanups.dueAt, now)),
    db.select({ n: count() }).from(units).where(isNotNull(units.agentLostSince)),
    db.select({ n: count() }).from(machines).where(isNotNull(machines.agentLostSince)),
  ]);
  return {
    cleanupsQueued: queued?.n ?? 0,
    cleanupsDue: due?.n ?? 0,
    unitAgentsLost: unitsLost?.n ?? 0,
    machineAgentsLost: machinesLost?.n ?? 0,
  };
}
