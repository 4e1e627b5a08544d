// Machines with their status, instance and provisioning (failed start attempts and the provider's last error).
import type { Held, MachineInfo } from "./model-state.js";
import { lifeClass, statusClass } from "./status-class.js";

export function MachinesTable({ machines, unitsOn }: { machines: Held<MachineInfo>[]; unitsOn: Map<string, number> }) {
  const sorted = [...machines].sort((a, b) => a.id.localeCompare(b.id, undefined, { numeric: true }));
  return (
    <section class="panel machines">
      <h2>
        Machines <span class="count">{machines.length}</span>
      </h2>
      <table>
        <thead>
          <tr>
            <th>machine</th>
            <th>life</th>
            <th>status</th>
            <th>instance</th>
            <th>units</th>
            <th>start attempts</th>
            <th>last start error</th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((machine) => (
            <tr
              key={machine.id}
              data-machine={machine.id}
              data-life={machine.life ?? ""}
              class={`${lifeClass(machine.life)} ${statusClass(machine.info.status?.current)}`}
            >
              <td class="name">
                <span class="dot" />
                {machine.id}
              </td>
              <td>{machine.life?.toLowerCase()}</td>
              <td class="status">
                {machine.info.status
                  ? `${machine.info.status.current}${machine.info.status.message ? `: ${machine.info.status.message}` : ""}`
                  : ""}
              </td>
              <td>{machine.info.instanceId ?? "—"}</td>
              <td>{unitsOn.get(machine.id) ?? 0}</td>
              <td>{machine.info.startAttempts ?? 0}</td>
              <td class="error">{machine.info.lastStartError ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
