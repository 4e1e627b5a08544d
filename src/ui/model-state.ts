// The model as the page holds it, built from the `changes` stream: each kind's entities as the last STATE gave them,
// with the fields each CHANGE names in `changed` set over them (docs/streams.md, "Merging"). A snapshot is gathered
// aside and replaces everything at its BOOKMARK, so the page never shows half of one.
import type { ChangeEventFragment, Life } from "../client/graphql.js";

type Infos = Required<{ [K in "machine" | "application" | "unit" | "relation" | "hook"]: NonNullable<ChangeEventFragment[K]> }>;
export type Kind = keyof Infos;
export type MachineInfo = Infos["machine"];
export type ApplicationInfo = Infos["application"];
export type UnitInfo = Infos["unit"];
export type RelationInfo = Infos["relation"];
export type HookInfo = Infos["hook"];

export interface Held<I> {
  id: string;
  life: Life | null;
  info: I;
}

export type Tables = { [K in Kind]: Map<string, Held<Infos[K]>> };

const KINDS: Record<string, Kind> = { MACHINE: "machine", APPLICATION: "application", UNIT: "unit", RELATION: "relation", HOOK: "hook" };

const emptyTables = (): Tables => ({ machine: new Map(), application: new Map(), unit: new Map(), relation: new Map(), hook: new Map() });

/** One line of the change feed. */
export interface FeedLine {
  revision: string;
  kind: string;
  entity: string;
  text: string;
}

/** How many feed lines are kept: the newest. */
export const FEED_LINES = 500;

export class ModelState {
  tables: Tables = emptyTables();
  private incoming: Tables | null = null;
  feed: FeedLine[] = [];
  revision = "";
  /** A snapshot has been read. */
  synced = false;
  /** Bumped on every change the page should draw. */
  version = 0;

  reset(): void {
    this.incoming = null;
    this.synced = false;
  }

  /** Applies one event; true when it touched an entity that is (or was) Dying, whose blockers may have moved. */
  apply(event: ChangeEventFragment): boolean {
    this.revision = event.revision;
    if (event.type === "BOOKMARK") {
      if (this.incoming) {
        this.tables = this.incoming;
        this.incoming = null;
      }
      const first = !this.synced;
      this.synced = true;
      if (first) this.version++;
      return first;
    }
    const kind = event.kind ? KINDS[event.kind] : undefined;
    if (event.type === "STATE") {
      this.incoming ??= emptyTables();
      const info = kind && event[kind];
      if (kind && info && event.entity) this.incoming[kind].set(event.entity, { id: event.entity, life: event.life, info } as never);
      return false;
    }
    this.version++;
    this.feed.unshift(feedLine(event));
    if (this.feed.length > FEED_LINES) this.feed.length = FEED_LINES;
    if (!kind || !event.entity) return event.kind === "MODEL";
    const table = this.tables[kind] as Map<string, Held<object>>;
    const before = table.get(event.entity);
    const info = event[kind];
    if (event.removed) table.delete(event.entity);
    else if (info) table.set(event.entity, merged(before, event, info));
    return before?.life === "DYING" || event.life === "DYING" || event.life === "DEAD";
  }
}

function merged(before: Held<object> | undefined, event: ChangeEventFragment, info: object): Held<object> {
  if (!before) return { id: event.entity!, life: event.life ?? "ALIVE", info };
  const next = { ...before.info };
  for (const field of event.changed) if (field in info) Reflect.set(next, field, Reflect.get(info, field));
  return { id: before.id, life: event.life ?? before.life, info: next };
}

/** What a change says, in a line: its entity, and what of it changed. */
function feedLine(event: ChangeEventFragment): FeedLine {
  const entity = event.entity ?? "";
  const kind = (event.kind ?? "").toLowerCase();
  const parts: string[] = [];
  if (event.removed) parts.push("removed");
  else if (event.life && event.life !== "ALIVE") parts.push(event.life.toLowerCase());
  const unit = event.unit;
  if (unit?.workloadStatus && event.changed.includes("workloadStatus"))
    parts.push(`workload ${unit.workloadStatus.current}${unit.workloadStatus.message ? `: ${unit.workloadStatus.message}` : ""}`);
  if (unit?.agentStatus && event.changed.includes("agentStatus"))
    parts.push(`agent ${unit.agentStatus.current}${unit.agentStatus.hook ? ` (${unit.agentStatus.hook})` : ""}`);
  const machine = event.machine;
  if (machine?.status && event.changed.includes("status"))
    parts.push(`${machine.status.current}${machine.status.message ? `: ${machine.status.message}` : ""}`);
  if (machine?.instanceId && event.changed.includes("instanceId")) parts.push(`instance ${machine.instanceId}`);
  const hook = event.hook;
  if (hook?.logged?.length) for (const line of hook.logged) parts.push(`log ${line.level}: ${line.message}`);
  else if (hook?.hook) parts.push(`${hook.hook} ${hook.result?.toLowerCase() ?? ""}`.trim());
  const rest = event.changed.filter((f) => !["workloadStatus", "agentStatus", "status", "instanceId"].includes(f) && !hook);
  if (!parts.length && event.life === "ALIVE" && event.changed.includes("life")) parts.push("alive");
  if (!parts.length && rest.length) parts.push(rest.join(", "));
  return { revision: event.revision, kind, entity, text: parts.join("; ") };
}
