// `lifeline status`: the CliStatus query's answer as Juju shows it. One plain view (statusView) feeds every format:
// yaml and json print it, tabular lays it out in Juju's sections.
import type { CliStatusQuery } from "../client/graphql.js";
import type { Paint } from "./colour.js";
import { table } from "./table.js";

type Model = NonNullable<CliStatusQuery["model"]>;
type Blockers = Model["blockers"];
type Row<Connection extends { edges: { node: unknown }[] }> = Connection["edges"][number]["node"];
/** `T` with the fields `K` possibly missing: what a stream does not carry (blockers, an endpoint's role). */
type Loose<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;
type Relation = Row<Model["relations"]>;

/**
 * What a status view is built from: the CliStatus query's rows (statusInput), or those a watch holds from the change
 * stream (src/cli/watch-view.ts), which knows blockers and endpoints' roles only once it has read them.
 */
export interface StatusInput {
  model: Loose<Pick<Model, "name" | "life" | "revision" | "defaultSeries" | "blockers">, "blockers">;
  machines: Loose<Row<Model["machines"]>, "blockers">[];
  applications: Loose<Row<Model["applications"]>, "blockers">[];
  units: Loose<Row<Model["units"]>, "blockers">[];
  relations: (Loose<Omit<Relation, "endpoints">, "blockers"> & { endpoints: Loose<Relation["endpoints"][number], "role">[] })[];
}

/** The CliStatus query's model as a view's input. */
export function statusInput(model: Model): StatusInput {
  return {
    model,
    machines: model.machines.edges.map((e) => e.node),
    applications: model.applications.edges.map((e) => e.node),
    units: model.units.edges.map((e) => e.node),
    relations: model.relations.edges.map((e) => e.node),
  };
}

const lower = (life: string) => life.toLowerCase();
/** What holds a Dying entity back, one line. */
const blocking = (blockers: Blockers) => blockers.map((b) => b.message).join("; ");
const message = (life: string, own: string, blockers: Blockers) => (life !== "ALIVE" && blockers.length ? blocking(blockers) : own);

/** Juju's order of concern: an application shows its most pressing unit's workload status. */
const concern = ["error", "blocked", "maintenance", "waiting", "active", "unknown"];
function applicationStatus(units: { current: string; message: string }[]) {
  const rank = (current: string) => (concern.includes(current) ? concern.indexOf(current) : concern.length);
  return [...units].sort((a, b) => rank(a.current) - rank(b.current))[0] ?? { current: "unknown", message: "" };
}

type State = { current: string; message: string };

export interface StatusView {
  model: { name: string; life: string; series: string; revision: string; blockers?: Blockers };
  applications: Record<
    string,
    { charm: string; life: string; series: string; scale: number; subordinate: boolean; status: State; blockers?: Blockers }
  >;
  units: Record<
    string,
    {
      application: string;
      life: string;
      machine: string | null;
      principal: string | null;
      workload: State;
      agent: State;
      blockers?: Blockers;
    }
  >;
  machines: Record<string, { life: string; status: State; instance: string | null; series: string; blockers?: Blockers }>;
  integrations: {
    id: number;
    key: string;
    interface: string;
    scope: string;
    life: string;
    endpoints: string[];
    blockers?: Blockers;
  }[];
}

/** The model, narrowed to `names` (applications, units, machines) when any are given. */
export function statusView(input: StatusInput, names: readonly string[] = []): StatusView {
  const { model } = input;
  let { machines, applications, units, relations } = input;
  if (names.length) {
    const named = new Set(names);
    units = units.filter(
      (u) =>
        named.has(u.name) || named.has(u.applicationName) || (u.machineId !== null && u.machineId !== undefined && named.has(u.machineId)),
    );
    const apps = new Set([...units.map((u) => u.applicationName), ...applications.filter((a) => named.has(a.name)).map((a) => a.name)]);
    const hosts = new Set(units.map((u) => u.machineId));
    applications = applications.filter((a) => apps.has(a.name));
    machines = machines.filter((m) => named.has(m.id) || hosts.has(m.id));
    relations = relations.filter((r) => r.endpoints.some((e) => apps.has(e.applicationName)));
  }
  const unitsOf = (application: string) => units.filter((u) => u.applicationName === application);
  return {
    model: {
      name: model.name,
      life: lower(model.life),
      series: model.defaultSeries,
      revision: model.revision,
      ...(model.blockers?.length ? { blockers: model.blockers } : {}),
    },
    applications: Object.fromEntries(
      applications.map((a) => [
        a.name,
        {
          charm: a.charmUrl,
          life: lower(a.life),
          series: a.series,
          scale: a.unitCount,
          subordinate: a.subordinate,
          status: applicationStatus(unitsOf(a.name).map((u) => u.workloadStatus)),
          ...(a.blockers?.length ? { blockers: a.blockers } : {}),
        },
      ]),
    ),
    units: Object.fromEntries(
      units.map((u) => [
        u.name,
        {
          application: u.applicationName,
          life: lower(u.life),
          machine: u.machineId ?? null,
          principal: u.principalName ?? null,
          workload: u.workloadStatus,
          agent: u.agentStatus,
          ...(u.blockers?.length ? { blockers: u.blockers } : {}),
        },
      ]),
    ),
    machines: Object.fromEntries(
      machines.map((m) => [
        m.id,
        {
          life: lower(m.life),
          status: m.status,
          instance: m.instanceId ?? null,
          series: m.series,
          ...(m.blockers?.length ? { blockers: m.blockers } : {}),
        },
      ]),
    ),
    integrations: relations.map((r) => ({
      id: r.id,
      key: r.key,
      interface: r.interface,
      scope: lower(r.scope),
      life: lower(r.life),
      endpoints: r.endpoints.map((e) => `${e.applicationName}:${e.name}${e.role ? ` (${lower(e.role)})` : ""}`),
      ...(r.blockers?.length ? { blockers: r.blockers } : {}),
    })),
  };
}

/** Juju's sections: Model, App, Unit, Machine, Integration (empty ones left out, as Juju does). */
export function tabular(view: StatusView, paint: { state: Paint; bold: Paint }): string {
  const { state } = paint;
  const sections: string[] = [];
  const m = view.model;
  sections.push(
    table(
      ["Model", "Life", "Series", "Revision", "Message"],
      [[m.name, state(m.life), m.series, m.revision, message(m.life.toUpperCase(), "", m.blockers ?? [])]],
    ),
  );
  const apps = Object.entries(view.applications);
  if (apps.length)
    sections.push(
      table(
        ["App", "Life", "Status", "Scale", "Charm", "Message"],
        apps.map(([name, a]) => [
          name,
          state(a.life),
          state(a.status.current),
          String(a.scale),
          a.charm,
          message(a.life.toUpperCase(), a.status.message, a.blockers ?? []),
        ]),
      ),
    );
  const units = Object.entries(view.units);
  if (units.length)
    sections.push(
      table(
        ["Unit", "Life", "Workload", "Agent", "Machine", "Message"],
        units.map(([name, u]) => [
          u.principal ? `  ${name}` : name,
          state(u.life),
          state(u.workload.current),
          state(u.agent.current),
          u.machine ?? "",
          message(u.life.toUpperCase(), u.agent.message || u.workload.message, u.blockers ?? []),
        ]),
      ),
    );
  const machines = Object.entries(view.machines);
  if (machines.length)
    sections.push(
      table(
        ["Machine", "Life", "Status", "Instance", "Series", "Message"],
        machines.map(([id, x]) => [
          id,
          state(x.life),
          state(x.status.current),
          x.instance ?? "pending",
          x.series,
          message(x.life.toUpperCase(), x.status.message, x.blockers ?? []),
        ]),
      ),
    );
  if (view.integrations.length)
    sections.push(
      table(
        ["Integration", "Interface", "Type", "Life", "Message"],
        view.integrations.map((r) => [r.key, r.interface, r.scope, state(r.life), message(r.life.toUpperCase(), "", r.blockers ?? [])]),
      ),
    );
  return `${sections.join("\n\n")}\n`;
}
