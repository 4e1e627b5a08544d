// Machines with their status, instance and provisioning (failed start attempts and the provider's last error), in a
// windowed list: a model of a thousand units has about as many machines.
import { type Constraints, formatConstraints } from "../core/constraints.js";
import type { Held, MachineInfo } from "./model-state.js";
import { lifeClass, statusClass } from "./status-class.js";
import { Windowed } from "./windowed.js";

const ROW_HEIGHT = 26;
const VIEW_HEIGHT = 300;

/** What the instance was asked for, in Juju's syntax (the stream's fields hold null where a key is unset). */
const asked = (constraints: MachineInfo["constraints"]): string =>
  constraints ? formatConstraints(Object.fromEntries(Object.entries(constraints).filter(([, v]) => v != null)) as Constraints) : "";

const byId = (a: Held<MachineInfo>, b: Held<MachineInfo>) => a.id.localeCompare(b.id, undefined, { numeric: true });

export function MachinesTable({ machines, unitsOn }: { machines: Held<MachineInfo>[]; unitsOn: Map<string, number> }) {
  const sorted = [...machines].sort(byId);
  return (
    <section class="panel machines">
      <h2>
        Machines <span class="count">{machines.length}</span>
      </h2>
      <div class="machine-row heading muted">
        <span>machine</span>
        <span>life</span>
        <span>status</span>
        <span>instance</span>
        <span>constraints</span>
        <span>units</span>
        <span>start attempts</span>
        <span>last start error</span>
      </div>
      <Windowed
        count={sorted.length}
        rowHeight={ROW_HEIGHT}
        height={VIEW_HEIGHT}
        row={(index, top) => {
          const machine = sorted[index]!;
          const status = machine.info.status;
          return (
            <div
              key={machine.id}
              style={{ top }}
              data-machine={machine.id}
              data-life={machine.life ?? ""}
              class={`machine-row row ${lifeClass(machine.life)} ${statusClass(status?.current)}`}
            >
              <span class="name">
                <span class="dot" />
                {machine.id}
              </span>
              <span>{machine.life?.toLowerCase()}</span>
              <span class="status" title={status?.message ?? ""}>
                {status ? `${status.current}${status.message ? `: ${status.message}` : ""}` : ""}
              </span>
              <span>{machine.info.instanceId ?? "—"}</span>
              <span class="constraints">{asked(machine.info.constraints)}</span>
              <span>{unitsOn.get(machine.id) ?? 0}</span>
              <span>{machine.info.startAttempts ?? 0}</span>
              <span class="error" title={machine.info.lastStartError ?? ""}>
                {machine.info.lastStartError ?? ""}
              </span>
            </div>
          );
        }}
      />
    </section>
  );
}
