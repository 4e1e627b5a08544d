// `lifeline debug-log`'s lines, as Juju's debug-log prints them (time, entity, level, message): a hook run's start and
// end and its juju-log lines, from the history kept (Model.hookHistory) or from the stream's HOOK events, and agent
// actions from its UNIT and MACHINE events. Each line has a key, so one read both from the history and from the
// stream (they overlap by the moment between the two) prints once.
import type { ChangeEventFragment, CliHookRunFieldsFragment, HookLogLevel, HookRunResult } from "../client/graphql.js";

export const LEVELS: readonly HookLogLevel[] = ["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"];

export interface LogLine {
  /** ISO time: lines sort by it. */
  at: string;
  /** Juju's tag: unit-wordpress-0, machine-0-lxd-1. */
  entity: string;
  level: HookLogLevel;
  message: string;
  /** What it is about, for --include and --exclude. */
  about: { unit?: string; application?: string; machine?: string };
  /** The same line read twice has the same key. */
  key: string;
}

const unitTag = (name: string) => `unit-${name.replace("/", "-")}`;
const machineTag = (id: string) => `machine-${id.replaceAll("/", "-")}`;

/** What a history's run (HookRun) and a stream's (HookInfo, whose fields are nullable) have in common. */
type Run = Pick<NonNullable<ChangeEventFragment["hook"]>, "unitName" | "hook" | "relation" | "remoteUnit" | "message" | "result"> & {
  id: string;
};

function hookName(run: Pick<Run, "hook" | "relation" | "remoteUnit">): string {
  const about = [run.relation !== null && run.relation !== undefined ? `relation ${run.relation}` : "", run.remoteUnit ?? ""];
  const detail = about.filter(Boolean).join(", ");
  return `"${run.hook}" hook${detail ? ` (${detail})` : ""}`;
}

const ENDED: Record<Exclude<HookRunResult, "RUNNING">, { level: HookLogLevel; says: (hook: string) => string }> = {
  SUCCEEDED: { level: "INFO", says: (hook) => `ran ${hook}` },
  FAILED: { level: "ERROR", says: (hook) => `${hook} failed` },
  SKIPPED: { level: "INFO", says: (hook) => `skipped ${hook} (resolved --no-retry)` },
  INTERRUPTED: { level: "WARNING", says: (hook) => `${hook} interrupted: its agent restarted mid-hook` },
  MISSING: { level: "WARNING", says: (hook) => `${hook} missing from its charm` },
};

function unitAbout(unit: string, application?: string) {
  return { unit, application: application ?? unit.split("/")[0] };
}

function started(run: Run, at: string): LogLine {
  return {
    at,
    entity: unitTag(run.unitName),
    level: "INFO",
    message: `running ${hookName(run)}`,
    about: unitAbout(run.unitName),
    key: `${run.id}:start`,
  };
}

function ended(run: Run & { result: Exclude<HookRunResult, "RUNNING"> }, at: string): LogLine {
  const { level, says } = ENDED[run.result];
  return {
    at,
    entity: unitTag(run.unitName),
    level,
    message: `${says(hookName(run))}${run.message ? `: ${run.message}` : ""}`,
    about: unitAbout(run.unitName),
    key: `${run.id}:end`,
  };
}

function logged(run: Pick<Run, "id" | "unitName">, line: { level: HookLogLevel; message: string; loggedAt: string }): LogLine {
  return {
    at: line.loggedAt,
    entity: unitTag(run.unitName),
    level: line.level,
    message: `juju-log: ${line.message}`,
    about: unitAbout(run.unitName),
    key: `${run.id}:log:${line.loggedAt}:${line.message}`,
  };
}

/** A run from the history: its start, its juju-log lines, and its end once it has one. */
export function runLines(run: CliHookRunFieldsFragment): LogLine[] {
  const lines = [started(run, run.startedAt), ...run.log.map((line) => logged(run, line))];
  if (run.result !== "RUNNING" && run.endedAt) lines.push(ended({ ...run, result: run.result }, run.endedAt));
  return lines;
}

/**
 * A stream's lines: a hook run begun or ended, juju-log lines, or an agent's action. It remembers each unit's and
 * machine's life and whether its agent is lost, as changes carry those fields whether or not they moved.
 */
export class LiveLines {
  private readonly life = new Map<string, string>();
  private readonly lost = new Set<string>();

  of(event: ChangeEventFragment, now = new Date().toISOString()): LogLine[] {
    if (event.type !== "CHANGE") return []; // a snapshot's state is history, which the history query gives
    if (event.hook) {
      const hook = event.hook;
      if (event.removed || !hook.id) return [];
      if (hook.logged) return hook.logged.map((line) => logged({ id: hook.id!, unitName: hook.unitName }, line));
      const run = { ...hook, id: hook.id };
      if (hook.result === "RUNNING") return [started(run, hook.startedAt ?? now)];
      if (hook.result) return [ended({ ...run, result: hook.result }, hook.endedAt ?? now)];
      return [];
    }
    const { unit, machine } = event;
    if (unit) return this.actions(event, unitTag(unit.name), unitAbout(unit.name, unit.applicationName ?? undefined), now);
    if (machine) return this.actions(event, machineTag(machine.id), { machine: machine.id }, now);
    return [];
  }

  /** What an agent (or the model's rules) did to a unit or machine: its life, its agent's and workload's status, its instance. */
  private actions(event: ChangeEventFragment, entity: string, about: LogLine["about"], now: string): LogLine[] {
    const line = (message: string, level: HookLogLevel = "INFO", at = now): LogLine => ({
      at,
      entity,
      level,
      message,
      about,
      key: `${event.revision}:${message}`,
    });
    if (event.removed) {
      this.life.delete(entity);
      this.lost.delete(entity);
      return [line("removed")];
    }
    const changed = new Set(event.changed);
    const lines: LogLine[] = [];
    if (event.life && event.life !== this.life.get(entity)) {
      // A first sight of an Alive one says nothing: it was added, or lived before the stream began.
      if (this.life.has(entity) || event.life !== "ALIVE") lines.push(line(event.life.toLowerCase()));
      this.life.set(entity, event.life);
    }
    const { unit, machine } = event;
    // Executing and idle are a hook run's start and end, which have lines of their own.
    const agent = unit?.agentStatus;
    if (changed.has("agentStatus") && agent && agent.current !== "executing" && agent.current !== "idle")
      lines.push(
        line(
          `agent ${agent.current}${agent.message ? `: ${agent.message}` : ""}`,
          agent.current === "error" ? "ERROR" : "INFO",
          agent.since,
        ),
      );
    const workload = unit?.workloadStatus;
    if (changed.has("workloadStatus") && workload)
      lines.push(line(`workload ${workload.current}${workload.message ? `: ${workload.message}` : ""}`, "INFO", workload.since));
    if (changed.has("instanceId") && machine?.instanceId) lines.push(line(`provisioned: instance ${machine.instanceId}`));
    if (changed.has("status") && machine?.status) {
      const { current, message, since } = machine.status;
      lines.push(line(`${current}${message ? `: ${message}` : ""}`, current === "error" ? "ERROR" : "INFO", since));
    }
    if (changed.has("agentLostSince")) {
      const lostSince = (unit ?? machine)?.agentLostSince;
      if (lostSince && !this.lost.has(entity)) lines.push(line("agent lost", "WARNING"));
      if (!lostSince && this.lost.has(entity)) lines.push(line("agent back"));
      if (lostSince) this.lost.add(entity);
      else this.lost.delete(entity);
    }
    return lines;
  }
}

export interface Selection {
  include: string[];
  exclude: string[];
  level: HookLogLevel;
}

/** `wordpress/0`, `unit-wordpress-0`, `wordpress` (its units), `1`, `machine-1`: Juju's --include names. */
function names(line: LogLine, name: string): boolean {
  const { unit, application, machine } = line.about;
  if (name === line.entity) return true;
  if (unit !== undefined && (name === unit || name === application)) return true;
  return machine !== undefined && name === machine;
}

export function selected(line: LogLine, selection: Selection): boolean {
  if (LEVELS.indexOf(line.level) < LEVELS.indexOf(selection.level)) return false;
  if (selection.include.length && !selection.include.some((name) => names(line, name))) return false;
  return !selection.exclude.some((name) => names(line, name));
}

/** `00:12:34 unit-wordpress-0 INFO ran "install" hook`, in the local time zone. */
export function formatLine(line: LogLine): string {
  const at = new Date(line.at);
  const time = Number.isNaN(at.getTime()) ? line.at : at.toTimeString().slice(0, 8);
  return `${time} ${line.entity} ${line.level} ${line.message}`;
}

/** Oldest first; lines of the same moment keep the order they were read in. */
export function chronological(lines: LogLine[]): LogLine[] {
  return lines
    .map((line, i) => ({ line, i }))
    .sort((a, b) => Date.parse(a.line.at) - Date.parse(b.line.at) || a.i - b.i)
    .map(({ line }) => line);
}
