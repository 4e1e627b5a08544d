// Units under their applications, with their machines: one windowed list (only the rows in view are in the page, so
// a thousand units scroll as smoothly as ten), a header row per application that collapses it, and a search box.
import { useState } from "preact/hooks";
import type { ApplicationInfo, Held, UnitInfo } from "./model-state.js";
import { lifeClass, statusClass } from "./status-class.js";
import { Windowed } from "./windowed.js";

const ROW_HEIGHT = 26;
const VIEW_HEIGHT = 420;

type Row =
  | { kind: "application"; name: string; life: Held<ApplicationInfo>["life"]; shown: number; total: number }
  | { kind: "unit"; unit: Held<UnitInfo> };

interface Props {
  applications: Held<ApplicationInfo>[];
  units: Held<UnitInfo>[];
  selected: string | null;
  onSelect(unit: string): void;
}

const matches = (unit: Held<UnitInfo>, needle: string) =>
  !needle ||
  [
    unit.id,
    unit.info.machineId,
    unit.info.workloadStatus?.current,
    unit.info.workloadStatus?.message,
    unit.info.agentStatus?.current,
    unit.life,
  ].some((field) => field?.toLowerCase().includes(needle));

/** The rows to show: each application's header, then (unless collapsed) its units that match the search, in name order. */
function rowsOf(applications: Held<ApplicationInfo>[], units: Held<UnitInfo>[], needle: string, collapsed: ReadonlySet<string>): Row[] {
  const byApplication = new Map<string, Held<UnitInfo>[]>();
  for (const application of applications) byApplication.set(application.id, []);
  for (const unit of units) {
    const name = unit.info.applicationName ?? unit.id.split("/")[0]!;
    if (!byApplication.has(name)) byApplication.set(name, []);
    byApplication.get(name)!.push(unit);
  }
  const lives = new Map(applications.map((a) => [a.id, a.life]));
  const rows: Row[] = [];
  for (const name of [...byApplication.keys()].sort()) {
    const all = byApplication.get(name)!;
    const shown = all.filter((u) => matches(u, needle)).sort((a, b) => unitOrder(a.id, b.id));
    if (needle && !shown.length && !name.includes(needle)) continue;
    rows.push({ kind: "application", name, life: lives.get(name) ?? null, shown: shown.length, total: all.length });
    if (!collapsed.has(name)) for (const unit of shown) rows.push({ kind: "unit", unit });
  }
  return rows;
}

/** wordpress/2 before wordpress/10. */
const unitOrder = (a: string, b: string) => a.localeCompare(b, undefined, { numeric: true });

export function UnitsList({ applications, units, selected, onSelect }: Props) {
  const [search, setSearch] = useState("");
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const rows = rowsOf(applications, units, search.trim().toLowerCase(), collapsed);
  const toggle = (name: string) => {
    const next = new Set(collapsed);
    if (!next.delete(name)) next.add(name);
    setCollapsed(next);
  };
  return (
    <section class="panel units">
      <h2>
        Units <span class="count">{units.length}</span>
      </h2>
      <input
        type="search"
        class="search"
        placeholder="search units, machines, status…"
        value={search}
        onInput={(e) => setSearch((e.target as HTMLInputElement).value)}
      />
      <Windowed
        count={rows.length}
        rowHeight={ROW_HEIGHT}
        height={VIEW_HEIGHT}
        row={(index, top) => {
          const row = rows[index]!;
          if (row.kind === "application")
            return (
              <button
                type="button"
                key={`a:${row.name}`}
                class={`row group ${lifeClass(row.life)}`}
                style={{ top }}
                data-group={row.name}
                onClick={() => toggle(row.name)}
              >
                <span class="twisty">{collapsed.has(row.name) ? "▸" : "▾"}</span>
                <span class="name">{row.name}</span>
                <span class="muted">{row.shown === row.total ? `${row.total} units` : `${row.shown} of ${row.total} units`}</span>
                {row.life && row.life !== "ALIVE" ? <span class="badge">{row.life.toLowerCase()}</span> : null}
              </button>
            );
          const { unit } = row;
          const workload = unit.info.workloadStatus;
          return (
            <button
              type="button"
              key={`u:${unit.id}`}
              class={`row unit ${lifeClass(unit.life)} ${statusClass(workload?.current)}${selected === unit.id ? " selected" : ""}`}
              style={{ top }}
              data-unit={unit.id}
              data-life={unit.life ?? ""}
              data-status={workload?.current ?? ""}
              onClick={() => onSelect(unit.id)}
            >
              <span class="dot" />
              <span class="name">{unit.id}</span>
              <span class="life">{unit.life?.toLowerCase()}</span>
              <span class="workload">{workload ? `${workload.current}${workload.message ? `: ${workload.message}` : ""}` : ""}</span>
              <span class="agent">{unit.info.agentStatus?.current ?? ""}</span>
              <span class="machine">
                {unit.info.machineId ? `machine ${unit.info.machineId}` : unit.info.principalName ? `on ${unit.info.principalName}` : ""}
              </span>
            </button>
          );
        }}
      />
    </section>
  );
}
