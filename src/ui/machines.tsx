// Machines with their status, instance and provisioning (failed start attempts and the provider's last error), in a
// windowed list: a model of a thousand units has about as many machines.
import type { Held, MachineInfo } from "./model-state.js";
import { lifeClass, statusClass } from "./status-class.js";
import { Windowed } from "./windowed.js";

const ROW_HEIGHT = 26;
const VIEW_HEIGHT = 300;

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
