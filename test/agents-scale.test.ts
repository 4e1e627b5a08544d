// A model of a few hundred units on PostgreSQL, settled and removed by the
// agents alone, with nothing left behind (issue 10, point 9): 200 units of a
// charm with no hooks, each on its own machine, related to another
// application; the controller runs every agent as `npm start` does. Removal
// must leave no unit, no relation, no relation settings or scopes, no agent
// state or hook runs of the removed units, and no cleanup queued. Waits poll
// the API (and, for what the API does not show, the database) with a deadline.
// PGlite is a single in-process connection, on which this many agents only
// measure the test's patience: this file runs on PostgreSQL (DATABASE_URL) and
// skips on PGlite, saying so.
import { and, eq, isNull, like, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { rowsOf } from "../src/db/connect.js";
import { cleanups, hookRuns, relationScopes, relationSettings, unitAgentStates } from "../src/db/schema.js";
import { useAgents } from "./support/agents.js";
import { onPostgres } from "./support/store.js";
import { useLiveServer } from "./support/streams.js";
import { scaled } from "./support/time-scale.js";

const live = useLiveServer();
const agentsFor = useAgents(live);

const UNITS = 200;
/** Each phase's deadline: a loaded 2-core machine settles 200 units in a minute or two. */
const PHASE = { timeout: scaled(360_000), interval: 1_000 };

/** One provides and one requires endpoint, and no hooks: the agents do only Lifeline's own work. */
const METADATA = `name: scale
summary: A charm with no hooks
description: For the scale test.
provides:
  server:
    interface: scale
requires:
  client:
    interface: scale
`;

const mutate = (query: string, input: Record<string, unknown>) => live.ok(query, { input });

const SETTLED = `query ($model: String!, $relation: Int!) { model(name: $model) {
  units(first: 1000) { edges { node { name agentStatus { current } agentState } } }
  relation(id: $relation) { unitCount }
} }`;

/** How far the deployment is from settled: agents not idle, units not in scope, joins whose hooks have not run on both sides. */
async function unsettled(model: string, relation: number) {
  const { model: m } = await live.ok(SETTLED, { model, relation });
  const units = m.units.edges.map((e: any) => e.node);
  const progress = (u: any) => u.agentState?.relations?.[String(relation)];
  return {
    units: units.length,
    notIdle: units.filter((u: any) => u.agentStatus.current !== "idle").length,
    inScope: m.relation.unitCount,
    // Each scale unit has seen the hub, and the hub every scale unit, with no -changed still owed.
    joinsUnseen: units.reduce((n: number, u: any) => {
      const p = progress(u);
      const expected = u.name === "hub/0" ? UNITS : 1;
      return n + (p && !p.changedPending ? expected - Object.keys(p.members).length : expected);
    }, 0),
  };
}

/** Lists rather than `relation(id:)` and `application(name:)`, which refuse a name that is gone with NOT_FOUND. */
const LEFT = `query ($model: String!) { model(name: $model) {
  units(application: "scale", first: 1000) { edges { node { name } } }
  relations(first: 10) { edges { node { id } } }
  applications(first: 10) { edges { node { name } } }
} }`;

async function countOf(table: PgTable, where: SQL | undefined) {
  const [row] = await live.store.db.select({ n: sql<number>`count(*)::int` }).from(table).where(where);
  return row!.n;
}

describe.skipIf(!onPostgres)(`${UNITS} units on PostgreSQL, settled and removed by the agents (skipped on PGlite: PostgreSQL only)`, () => {
  it("every unit settles in the relation; removeApplication leaves no unit, relation, settings, scope, agent state, hook run or cleanup", {
    timeout: 3 * PHASE.timeout,
  }, async () => {
    const { name: model, id: modelId } = await live.newModel();
    await agentsFor(model);
    const charm = (await mutate(`mutation ($input: AddCharmInput!) { addCharm(input: $input) { url } }`, { model, metadata: METADATA }))
      .addCharm.url;
    for (const application of ["scale", "hub"])
      await mutate(`mutation ($input: DeployInput!) { deploy(input: $input) { name } }`, { model, charm, application, numUnits: 0 });
    const relation = (
      await mutate(`mutation ($input: IntegrateInput!) { integrate(input: $input) { id } }`, {
        model,
        endpoints: ["scale:client", "hub:server"],
      })
    ).integrate.id as number;
    for (const [application, count] of [
      ["hub", 1],
      ["scale", UNITS],
    ] as const)
      await mutate(`mutation ($input: AddUnitInput!) { addUnit(input: $input) { name } }`, { model, application, count });

    await expect
      .poll(() => unsettled(model, relation), PHASE)
      .toEqual({ units: UNITS + 1, notIdle: 0, inScope: UNITS + 1, joinsUnseen: 0 });

    await mutate(`mutation ($input: RemoveApplicationInput!) { removeApplication(input: $input) { outcome } }`, {
      model,
      applications: ["scale"],
    });
    await expect
      .poll(async () => {
        const { model: m } = await live.ok(LEFT, { model });
        return {
          units: m.units.edges.length,
          relations: m.relations.edges.map((e: any) => e.node.id),
          applications: m.applications.edges.map((e: any) => e.node.name),
        };
      }, PHASE)
      .toEqual({ units: 0, relations: [], applications: ["hub"] });

    // What the API does not show: the relation's settings (deleted by a cleanup once the relation is removed), its
    // scopes, the removed units' agent states, hook runs not retired with their unit, and the model's cleanup queue.
    // The removed units' hook runs stay as their history (issue 35), bounded per unit name (checked below).
    const ofScale = (column: typeof unitAgentStates.unit | typeof hookRuns.unit) => like(column, "scale/%");
    await expect
      .poll(
        async () => ({
          settings: await countOf(relationSettings, and(eq(relationSettings.modelId, modelId), eq(relationSettings.relationId, relation))),
          scopes: await countOf(relationScopes, and(eq(relationScopes.modelId, modelId), eq(relationScopes.relationId, relation))),
          agentStates: await countOf(unitAgentStates, and(eq(unitAgentStates.modelId, modelId), ofScale(unitAgentStates.unit))),
          hookRuns: await countOf(hookRuns, and(eq(hookRuns.modelId, modelId), ofScale(hookRuns.unit), isNull(hookRuns.unitRemovedAt))),
          cleanups: await countOf(cleanups, eq(cleanups.modelId, modelId)),
        }),
        { timeout: scaled(60_000), interval: 500 },
      )
      .toEqual({ settings: 0, scopes: 0, agentStates: 0, hookRuns: 0, cleanups: 0 });
    const history = rowsOf<{ unit: string; runs: number }>(
      await live.store.db.execute(
        sql`select unit, count(*)::int as runs from hook_runs where model_id = ${modelId} and unit like 'scale/%' group by unit`,
      ),
    );
    // Its charm ships no hook, and a hook it does not ship is passed without a run (src/model/missing-hooks.ts): its
    // units leave no history. A charm's runs stay bounded per unit name (test/hook-history.test.ts).
    expect(history).toEqual([]);
  });
});
