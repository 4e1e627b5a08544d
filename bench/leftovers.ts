// What a phase that hit its deadline left behind, said the way a person would
// look it up: the entities still there with their life, agent status and
// blockers (the API's own answer to "why is it still here?"), and the model's
// cleanups still queued (straight from the database: the API has no query for them).
import type postgres from "postgres";
import type { Api } from "./api.js";

const BLOCKERS = `query ($model: String!, $application: String!, $relation: Int!) { model(name: $model) {
  units(application: $application, first: 10) { edges { node { name life agentStatus { current message hook } blockers { kind message } } } }
  relation(id: $relation) { key life unitCount blockers { kind message } }
  application(name: $application) { life unitCount blockers { kind message } }
} }`;

const MACHINES = `query ($model: String!) { model(name: $model) {
  machines(first: 1000) { edges { node { id life status { current message } blockers { kind message } } } }
} }`;

type Blockers = { kind: string; message: string }[];
const said = (blockers: Blockers) => (blockers.length ? blockers.map((b) => `${b.kind}: ${b.message}`).join("; ") : "no blockers");

/** The first units of `application` still there, its relation and itself, each with its blockers. */
export async function describeUnitsLeft(api: Api, model: string, application: string, relation: number): Promise<string[]> {
  type Units = {
    model: {
      units: {
        edges: {
          node: { name: string; life: string; agentStatus: { current: string; message: string; hook: string | null }; blockers: Blockers };
        }[];
      };
      relation: { key: string; life: string; unitCount: number; blockers: Blockers } | null;
      application: { life: string; unitCount: number; blockers: Blockers } | null;
    };
  };
  const { model: m } = await api<Units>(BLOCKERS, { model, application, relation });
  const lines = m.units.edges.map(
    ({ node: u }) =>
      `unit ${u.name}: ${u.life}, agent ${u.agentStatus.current}${u.agentStatus.message ? ` (${u.agentStatus.message})` : ""}; ${said(u.blockers)}`,
  );
  if (m.relation) lines.push(`relation ${m.relation.key}: ${m.relation.life}, ${m.relation.unitCount} units; ${said(m.relation.blockers)}`);
  if (m.application)
    lines.push(`application ${application}: ${m.application.life}, ${m.application.unitCount} units; ${said(m.application.blockers)}`);
  return lines;
}

/** The first of `machines` still there, with their life, status and blockers. */
export async function describeMachinesLeft(api: Api, model: string, machines: Set<string>): Promise<string[]> {
  type Machines = {
    model: {
      machines: { edges: { node: { id: string; life: string; status: { current: string; message: string }; blockers: Blockers } }[] };
    };
  };
  const { model: m } = await api<Machines>(MACHINES, { model });
  return m.machines.edges
    .filter(({ node }) => machines.has(node.id))
    .slice(0, 10)
    .map(
      ({ node: n }) =>
        `machine ${n.id}: ${n.life}, ${n.status.current}${n.status.message ? ` (${n.status.message})` : ""}; ${said(n.blockers)}`,
    );
}

/** The model's queued cleanups: how many, and the first few with their attempts and last error. */
export async function describeCleanups(sql: postgres.Sql, modelName: string): Promise<string[]> {
  const rows = await sql<{ kind: string; target: string; attempts: number; last_error: string | null; total: string }[]>`
    select c.kind, c.target, c.attempts, c.last_error, count(*) over () as total
    from cleanups c join models m on m.id = c.model_id
    where m.name = ${modelName} order by c.id limit 5`;
  if (!rows.length) return ["no cleanups queued"];
  return [
    `${rows[0]!.total} cleanups queued`,
    ...rows.map((r) => `cleanup ${r.kind} ${r.target}: ${r.attempts} attempts${r.last_error ? `, last error: ${r.last_error}` : ""}`),
  ];
}
