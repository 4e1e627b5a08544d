// What show-unit, show-machine and show-application print: one document per entity, keyed by its name as Juju's
// show-* commands print them, in kebab-case, with what is empty left out (an Alive entity has no blockers).
import type {
  CliBlockerFieldsFragment,
  CliHookRunFieldsFragment,
  CliShowApplicationQuery,
  CliShowMachineQuery,
  CliShowUnitQuery,
} from "../client/graphql.js";

type UnitData = NonNullable<NonNullable<CliShowUnitQuery["model"]>["unit"]>;
type MachineData = NonNullable<NonNullable<CliShowMachineQuery["model"]>["machine"]>;
type ApplicationData = NonNullable<NonNullable<CliShowApplicationQuery["model"]>["application"]>;

const lower = (word: string) => word.toLowerCase().replaceAll("_", "-");

const empty = (value: unknown) =>
  value === undefined || value === null || value === "" || (typeof value === "object" && Object.keys(value).length === 0);

/** Leaves out what is unset or empty (null, "", [], {}), so the document says only what there is. */
function compact(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => !empty(value)));
}

function blockers(list: readonly CliBlockerFieldsFragment[]) {
  return list.map((b) => compact({ kind: lower(b.kind), message: b.message, entities: b.entities }));
}

/** One hook run, newest first in a list; `withUnit` for an application's runs, which are of several units. */
export function hookRunView(run: CliHookRunFieldsFragment, withUnit: boolean) {
  return compact({
    unit: withUnit ? run.unitName : undefined,
    "unit-removed": run.unitRemovedAt,
    hook: run.hook,
    relation: run.relation,
    "remote-unit": run.remoteUnit,
    result: lower(run.result),
    message: run.message,
    started: run.startedAt,
    ended: run.endedAt,
    log: run.log.map((line) => `${line.loggedAt} ${line.level} ${line.message}`),
    "log-lines-dropped": run.logLinesDropped || undefined,
  });
}

export function unitView(unit: UnitData, runs: readonly CliHookRunFieldsFragment[]) {
  return {
    [unit.name]: compact({
      life: lower(unit.life),
      application: unit.applicationName,
      principal: unit.principalName,
      machine: unit.machineId,
      series: unit.series,
      "workload-status": compact(unit.workloadStatus),
      "agent-status": compact(unit.agentStatus),
      "agent-lost-since": unit.agentLostSince,
      resolved: unit.resolved ? lower(unit.resolved) : undefined,
      subordinates: unit.subordinates.map((s) => s.name),
      "relations-in-scope": unit.relationsInScope.map((r) => compact({ id: r.id, key: r.key })),
      blockers: blockers(unit.blockers),
      "hook-runs": runs.map((run) => hookRunView(run, false)),
    }),
  };
}

/**
 * A unit that is gone: its hook history is all the API keeps of it. `removed` is when (its newest run's unit went);
 * a later unit of the same name would have answered as a living one.
 */
export function removedUnitView(name: string, runs: readonly CliHookRunFieldsFragment[]) {
  const removed = runs[0]?.unitRemovedAt;
  // Each run says when its unit went only when that is not the one just said (an earlier unit of the same name).
  const view = (run: CliHookRunFieldsFragment) => hookRunView(run.unitRemovedAt === removed ? { ...run, unitRemovedAt: null } : run, false);
  return { [name]: compact({ removed: removed ?? true, "hook-runs": runs.map(view) }) };
}

export function machineView(machine: MachineData, runs: readonly CliHookRunFieldsFragment[]) {
  return {
    [machine.id]: compact({
      life: lower(machine.life),
      series: machine.series,
      jobs: machine.jobs.map(lower),
      "container-type": machine.containerType ? lower(machine.containerType) : undefined,
      parent: machine.parentId,
      // Provisioning as the API knows it: the instance once started, else the status message says why not; failed
      // starts are counted, so a machine in error after its last attempt reads so.
      "instance-id": machine.instanceId ?? "pending",
      "start-attempts-failed": machine.startAttempts || undefined,
      "last-start-error": machine.lastStartError ?? undefined,
      "last-start-attempt-at": machine.lastStartAttemptAt ?? undefined,
      "machine-status": compact(machine.status),
      "agent-lost-since": machine.agentLostSince,
      constraints: machine.constraints.text,
      units: Object.fromEntries(machine.units.map((u) => [u.name, lower(u.life)])),
      containers: Object.fromEntries(machine.containers.map((c) => [c.id, lower(c.life)])),
      blockers: blockers(machine.blockers),
      "hook-runs": runs.map((run) => hookRunView(run, true)),
    }),
  };
}

export function applicationView(application: ApplicationData, runs: readonly CliHookRunFieldsFragment[]) {
  const units = application.units.edges.map((e) => e.node);
  return {
    [application.name]: compact({
      life: lower(application.life),
      charm: application.charm.url,
      series: application.series,
      subordinate: application.subordinate,
      constraints: application.constraints.text,
      config: application.config,
      units: Object.fromEntries(
        units.map((u) => [
          u.name,
          compact({
            life: lower(u.life),
            machine: u.machineId,
            "workload-status": compact(u.workloadStatus),
            "agent-status": compact(u.agentStatus),
          }),
        ]),
      ),
      relations: application.relations.map((r) => ({ id: r.id, key: r.key, interface: r.interface, life: lower(r.life) })),
      blockers: blockers(application.blockers),
      "hook-runs": runs.map((run) => hookRunView(run, true)),
    }),
  };
}
