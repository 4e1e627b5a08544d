// Agent presence (Juju's presence pinger): whether each machine and unit agent is
// connected, so that one that is gone reads `lost` (its machine `down`) instead of the
// last status it set, and a removal that waits on it says so.
//
// Connected means held by a server process: an agent is held by a process while it has
// a subscription open there (its streams), or made a request there within a heartbeat,
// authenticated as itself (src/server/presence.ts keeps that in memory). The database
// knows, per agent, the process that holds it (`agent_presence.server`), or, once it has
// left every process, since when it is gone (`seen_at`, `lost_after`). A process holds
// its agents for as long as its lease runs (`server_processes.lease_until`: its last
// heartbeat plus its grace period), renewed every few seconds in one statement, so the
// steady cost is one row a process, not one a request or an agent. An agent's row is
// written only when it arrives at a process or leaves it, in batches.
//
// An agent is lost once its process's lease has run out (the process died, or cannot
// reach the database), or once the grace period has passed since it left. Then its unit
// or machine is marked (`agentLostSince`: when it was last connected), in one model
// transaction with its change rows, so streams see it. Whoever marks it: every process
// sweeps, and the model's lock and `FOR UPDATE ... SKIP LOCKED` on the presence rows have
// one of them do each agent; an agent arriving meanwhile holds its row, and is skipped.
// It comes back when a process holds it again: that process clears the mark, with its
// change rows, before the agent's first operation there goes on, so an agent never reads
// itself lost.
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { machineStatusSet, unitAgentChanged } from "../changes/change.js";
import { Life } from "../core/life.js";
import { unitAgentLost } from "../core/presence.js";
import type { Database } from "../db/connect.js";
import { agentPresence, machines, models, serverProcesses, units } from "../db/schema.js";
import { statement } from "../db/statement.js";
import type { Blocker } from "./blocker.js";
import type { MachineRow, UnitRow } from "./rows.js";
import { type InModel, modelOperation } from "./write/index.js";

/** An agent, as presence knows it: its model and its entity. */
export interface AgentKey {
  modelId: string;
  kind: "machine" | "unit";
  /** The machine id or unit name. */
  entity: string;
}

const columns = (agents: readonly AgentKey[]) => ({
  modelIds: agents.map((a) => a.modelId),
  kinds: agents.map((a) => a.kind),
  entities: agents.map((a) => a.entity),
});

/** Rows whose key is one of these agents, listed in the statement (for the few a model transaction names). */
const keyListed = (modelId: string, agents: readonly Pick<AgentKey, "kind" | "entity">[]) =>
  sql`(${agentPresence.modelId}, ${agentPresence.kind}, ${agentPresence.entity}) in (${sql.join(
    agents.map((a) => sql`(${modelId}::uuid, ${a.kind}::text, ${a.entity}::text)`),
    sql`, `,
  )})`;

/** Rows whose key is one of the agents given as three arrays (a statement's placeholders). */
const keyIn = (p: { modelIds: unknown; kinds: unknown; entities: unknown }) =>
  sql`(${agentPresence.modelId}, ${agentPresence.kind}, ${agentPresence.entity}) in (select * from unnest(${p.modelIds}::uuid[], ${p.kinds}::text[], ${p.entities}::text[]))`;

const renew = statement(["id", "label", "graceMs"], (db, p) =>
  db
    .insert(serverProcesses)
    .values({
      id: sql`${p.id}::uuid`,
      label: sql`${p.label}::text`,
      heartbeatAt: sql`now()`,
      leaseUntil: sql`now() + ${p.graceMs}::int * interval '1 millisecond'`,
    })
    .onConflictDoUpdate({
      target: serverProcesses.id,
      set: { heartbeatAt: sql`now()`, leaseUntil: sql`now() + ${p.graceMs}::int * interval '1 millisecond'` },
    }),
);

/** A process's heartbeat: its lease runs `graceMs` from now, for every agent it holds. */
export async function renewLease(db: Database, server: { id: string; label: string; graceMs: number }): Promise<void> {
  await renew(db, { id: server.id, label: server.label, graceMs: Math.round(server.graceMs) });
}

/** Agents held by `server` whose row says otherwise (held elsewhere, gone, or marked lost): it takes them back. */
const reclaim = statement(["server", "modelIds", "kinds", "entities"], (db, p) =>
  db
    .update(agentPresence)
    .set({ server: sql`${p.server}::uuid`, seenAt: sql`now()`, lostAfter: null })
    .where(and(keyIn(p), sql`(${agentPresence.server} is distinct from ${p.server}::uuid or ${agentPresence.lostSince} is not null)`))
    .returning({
      modelId: agentPresence.modelId,
      kind: agentPresence.kind,
      entity: agentPresence.entity,
      lostSince: agentPresence.lostSince,
    }),
);

const arrive = statement(["server", "modelIds", "kinds", "entities"], (db, p) =>
  db
    .insert(agentPresence)
    .select(
      sql`select a.model_id, a.kind, a.entity, ${p.server}::uuid, now(), null::timestamptz, null::timestamptz
        from unnest(${p.modelIds}::uuid[], ${p.kinds}::text[], ${p.entities}::text[]) as a(model_id, kind, entity)
        where exists (select 1 from ${models} m where m.id = a.model_id)`,
    )
    .onConflictDoUpdate({
      target: [agentPresence.modelId, agentPresence.kind, agentPresence.entity],
      set: { server: sql`excluded.server`, seenAt: sql`now()`, lostAfter: null },
    })
    .returning({
      modelId: agentPresence.modelId,
      kind: agentPresence.kind,
      entity: agentPresence.entity,
      lostSince: agentPresence.lostSince,
    }),
);

/**
 * Agents that have just arrived at `server` (their first operation there), or that it holds (`reclaiming`: only those
 * whose row says otherwise are written). Brings back those marked lost; answers once they are back.
 */
export async function agentsHeld(db: Database, server: string, agents: readonly AgentKey[], reclaiming = false): Promise<void> {
  if (agents.length === 0) return;
  const rows = await (reclaiming ? reclaim : arrive)(db, { server, ...columns(agents) });
  const byModel = new Map<string, AgentKey[]>();
  for (const row of rows) if (row.lostSince !== null) byModel.set(row.modelId, [...(byModel.get(row.modelId) ?? []), row]);
  for (const [modelId, returning] of byModel) {
    const [model] = await db.select({ name: models.name }).from(models).where(eq(models.id, modelId));
    if (model) await markAgentsBack(db, { model: model.name, agents: returning });
  }
}

const departures = sql`unnest(${sql.placeholder("modelIds")}::uuid[], ${sql.placeholder("kinds")}::text[], ${sql.placeholder("entities")}::text[], ${sql.placeholder("agoMs")}::int[]) as d(model_id, kind, entity, ago_ms)`;

const leave = statement(["server", "modelIds", "kinds", "entities", "agoMs", "graceMs"], (db, p) =>
  db
    .update(agentPresence)
    .set({
      server: null,
      // Each agent's departure, as long ago as the process says, on the database's clock (every process's).
      seenAt: sql`now() - d.ago_ms * interval '1 millisecond'`,
      lostAfter: sql`now() + (${p.graceMs}::int - d.ago_ms) * interval '1 millisecond'`,
    })
    .from(departures)
    .where(
      and(
        sql`d.model_id = ${agentPresence.modelId} and d.kind = ${agentPresence.kind} and d.entity = ${agentPresence.entity}`,
        sql`${agentPresence.server} = ${p.server}::uuid`,
      ),
    ),
);

/** Agents that left `server` (`agoMs` ago each): lost once `graceMs` has passed since, unless they are held again. */
export async function agentsLeft(
  db: Database,
  server: string,
  left: readonly (AgentKey & { agoMs: number })[],
  graceMs: number,
): Promise<void> {
  if (left.length === 0) return;
  await leave(db, { server, ...columns(left), agoMs: left.map((a) => Math.max(0, Math.round(a.agoMs))), graceMs: Math.round(graceMs) });
}

/** Whether an agent's presence row is past its deadline: its process's lease, or its grace after it left. */
const due = sql`${agentPresence.lostSince} is null and coalesce(${serverProcesses.leaseUntil}, ${agentPresence.lostAfter}, '-infinity'::timestamptz) < now()`;
/** When it was last connected: its process's last heartbeat, or its departure. */
const lastSeen = sql<Date>`coalesce(${serverProcesses.heartbeatAt}, ${agentPresence.seenAt})`.mapWith(
  (value: string | Date) => new Date(value),
);

/** The models with an agent past its deadline and not yet marked lost. */
async function modelsWithLostAgents(db: Database): Promise<string[]> {
  const rows = await db
    .selectDistinct({ name: models.name })
    .from(agentPresence)
    .innerJoin(models, eq(models.id, agentPresence.modelId))
    .leftJoin(serverProcesses, eq(serverProcesses.id, agentPresence.server))
    .where(due);
  return rows.map((r) => r.name);
}

/** Processes whose lease ended long ago and that hold no agent: nobody will ever ask about them. */
const FORGET_PROCESSES_AFTER = "1 day";

/**
 * Marks lost every agent past its deadline, a model at a time (any process may: see the top of this file), and forgets
 * processes long gone. Returns how many models it marked agents in.
 */
export async function sweepLostAgents(db: Database): Promise<number> {
  const names = await modelsWithLostAgents(db);
  for (const model of names) while ((await markAgentsLost(db, { model })) === LOST_BATCH);
  await db.execute(
    sql`delete from ${serverProcesses} s where s.lease_until < now() - ${FORGET_PROCESSES_AFTER}::interval
      and not exists (select 1 from ${agentPresence} p where p.server = s.id)`,
  );
  return names.length;
}

/** Agents a sweep marks lost in one transaction, at most: a process that held thousands takes a few. */
export const LOST_BATCH = 1000;

const dueOfModel = statement(["modelId", "limit"], (db, p) =>
  db
    .select({ kind: agentPresence.kind, entity: agentPresence.entity, lastSeen })
    .from(agentPresence)
    .leftJoin(serverProcesses, eq(serverProcesses.id, agentPresence.server))
    .where(and(sql`${agentPresence.modelId} = ${p.modelId}::uuid`, due))
    .limit(p.limit)
    .for("update", { of: agentPresence, skipLocked: true }),
);
/** Presence rows of agents that have finished: a sweep takes up to LOST_BATCH, so they go as arrays, not a listed key each. */
const forgetFinished = statement(["modelIds", "kinds", "entities"], (db, p) => db.delete(agentPresence).where(keyIn(p)));
const unitsNamed = statement(["modelId", "names"], (db, p) =>
  db.select().from(units).where(sql`${units.modelId} = ${p.modelId}::uuid and ${units.name} = any(${p.names}::text[])`),
);
const machinesNamed = statement(["modelId", "ids"], (db, p) =>
  db.select().from(machines).where(sql`${machines.modelId} = ${p.modelId}::uuid and ${machines.id} = any(${p.ids}::text[])`),
);
// Instants travel as ISO 8601 text: postgres.js serializes no timestamptz[] parameter.
/** Each named agent's row: lost since when it was last seen, its process forgotten (its lease no longer stands for it). */
const presenceLost = statement(["modelId", "kinds", "entities", "sinces"], (db, p) =>
  db
    .update(agentPresence)
    .set({ lostSince: sql`d.since::timestamptz`, seenAt: sql`d.since::timestamptz`, server: null, lostAfter: null })
    .from(sql`unnest(${p.kinds}::text[], ${p.entities}::text[], ${p.sinces}::text[]) as d(kind, entity, since)`)
    .where(sql`${agentPresence.modelId} = ${p.modelId}::uuid and ${agentPresence.kind} = d.kind and ${agentPresence.entity} = d.entity`),
);
const unitsLost = statement(["modelId", "names", "sinces"], (db, p) =>
  db
    .update(units)
    .set({ agentLostSince: sql`d.since::timestamptz` })
    .from(sql`unnest(${p.names}::text[], ${p.sinces}::text[]) as d(name, since)`)
    .where(sql`${units.modelId} = ${p.modelId}::uuid and ${units.name} = d.name`)
    .returning(),
);
const machinesLost = statement(["modelId", "ids", "sinces"], (db, p) =>
  db
    .update(machines)
    .set({ agentLostSince: sql`d.since::timestamptz` })
    .from(sql`unnest(${p.ids}::text[], ${p.sinces}::text[]) as d(id, since)`)
    .where(sql`${machines.modelId} = ${p.modelId}::uuid and ${machines.id} = d.id`)
    .returning(),
);
const unitsBack = statement(["modelId", "names"], (db, p) =>
  db
    .update(units)
    .set({ agentLostSince: null })
    .where(sql`${units.modelId} = ${p.modelId}::uuid and ${units.name} = any(${p.names}::text[]) and ${units.agentLostSince} is not null`)
    .returning(),
);
const machinesBack = statement(["modelId", "ids"], (db, p) =>
  db
    .update(machines)
    .set({ agentLostSince: null })
    .where(
      sql`${machines.modelId} = ${p.modelId}::uuid and ${machines.id} = any(${p.ids}::text[]) and ${machines.agentLostSince} is not null`,
    )
    .returning(),
);

/**
 * The model's agents past their deadline are lost (LOST_BATCH at most): their units and machines say so
 * (agentLostSince, with their change rows). An agent whose unit or machine is gone or Dead has finished: its row is
 * forgotten instead. Rows an arriving agent holds are skipped (SKIP LOCKED): it is back. Returns how many it took.
 */
export const markAgentsLost = modelOperation("any", async (tx, model, _input: InModel) => {
  const rows = await dueOfModel(tx.db, { modelId: model.id, limit: LOST_BATCH });
  if (rows.length === 0) return 0;
  const ofKind = (kind: AgentKey["kind"]) => rows.filter((r) => r.kind === kind).map((r) => r.entity);
  const [unitRows, machineRows] = await Promise.all([
    unitsNamed(tx.db, { modelId: model.id, names: ofKind("unit") }),
    machinesNamed(tx.db, { modelId: model.id, ids: ofKind("machine") }),
  ]);
  const living = new Set([
    ...unitRows.filter((u) => u.life !== Life.Dead).map((u) => `unit ${u.name}`),
    ...machineRows.filter((m) => m.life !== Life.Dead).map((m) => `machine ${m.id}`),
  ]);
  const finished = rows.filter((r) => !living.has(`${r.kind} ${r.entity}`));
  if (finished.length) await forgetFinished(tx.db, columns(finished.map((r) => ({ ...r, modelId: model.id }))));
  const lost = rows.filter((r) => living.has(`${r.kind} ${r.entity}`));
  if (lost.length === 0) return rows.length;
  const sinceOf = (r: (typeof rows)[number]) => r.lastSeen.toISOString();
  const lostOf = (kind: AgentKey["kind"]) => lost.filter((r) => r.kind === kind);
  const [, markedUnits, markedMachines] = await Promise.all([
    presenceLost(tx.db, {
      modelId: model.id,
      kinds: lost.map((r) => r.kind),
      entities: lost.map((r) => r.entity),
      sinces: lost.map(sinceOf),
    }),
    lostOf("unit").length
      ? (unitsLost(tx.db, {
          modelId: model.id,
          names: lostOf("unit").map((r) => r.entity),
          sinces: lostOf("unit").map(sinceOf),
        }) as Promise<UnitRow[]>)
      : ([] as UnitRow[]),
    lostOf("machine").length
      ? (machinesLost(tx.db, {
          modelId: model.id,
          ids: lostOf("machine").map((r) => r.entity),
          sinces: lostOf("machine").map(sinceOf),
        }) as Promise<MachineRow[]>)
      : ([] as MachineRow[]),
  ]);
  for (const unit of markedUnits) tx.record(model.id, unitAgentChanged(unit));
  for (const machine of markedMachines) tx.record(model.id, machineStatusSet(machine));
  return rows.length;
});

interface AgentsBackInput extends InModel {
  agents: readonly Pick<AgentKey, "kind" | "entity">[];
}

/** Agents held again after they were lost: their units and machines show the status they last set again, with change rows. */
export const markAgentsBack = modelOperation("any", async (tx, model, input: AgentsBackInput) => {
  const back = await tx.db
    .update(agentPresence)
    .set({ lostSince: null })
    .where(and(keyListed(model.id, input.agents), isNotNull(agentPresence.lostSince), isNotNull(agentPresence.server)))
    .returning({ kind: agentPresence.kind, entity: agentPresence.entity });
  const names = back.filter((a) => a.kind === "unit").map((a) => a.entity);
  const ids = back.filter((a) => a.kind === "machine").map((a) => a.entity);
  const [unitRows, machineRows] = await Promise.all([
    names.length ? unitsBack(tx.db, { modelId: model.id, names }) : ([] as UnitRow[]),
    ids.length ? machinesBack(tx.db, { modelId: model.id, ids }) : ([] as MachineRow[]),
  ]);
  for (const unit of unitRows) tx.record(model.id, unitAgentChanged(unit));
  for (const machine of machineRows) tx.record(model.id, machineStatusSet(machine));
  return back.length;
});

const since = (when: Date) => when.toISOString();

/** "Why is it still here?" for a Dying unit whose agent is lost: nothing its agent does happens until it is back. */
export function unitAgentLostBlocker(unit: UnitRow): Blocker | null {
  if (unit.life !== Life.Dying || !unitAgentLost(unit)) return null;
  return {
    kind: "agent-lost",
    message:
      `its unit agent is lost: not connected since ${since(unit.agentLostSince!)}, so it cannot set the unit Dead. ` +
      "It carries on if it comes back; removeUnit with force removes the unit anyway",
    entities: [unit.name],
  };
}

/** "Why is it still here?" for a Dying machine whose agent is lost. */
export function machineAgentLostBlocker(machine: MachineRow): Blocker | null {
  if (machine.life !== Life.Dying || machine.agentLostSince === null) return null;
  return {
    kind: "agent-lost",
    message:
      `its machine agent is lost: not connected since ${since(machine.agentLostSince)}, so it cannot set the machine Dead. ` +
      "It carries on if it comes back; removeMachine with force removes the machine anyway",
    entities: [machine.id],
  };
}
