// What a person sees of an agent that is gone (Juju's presence: `agent lost`, machine
// `down`). The status an agent last set is kept as it set it; while its agent is lost,
// the status shown is these words instead, and once it is back the kept one shows again.
// Every reader (queries, change rows, stream snapshots) shows statuses through here.
import type { AgentStatusData } from "./hooks.js";
import { Life } from "./life.js";
import type { UnitAgentStatus } from "./machine.js";

/** A unit agent's status while it is lost; its message. */
export const AGENT_LOST = "lost";
export const AGENT_LOST_MESSAGE = "agent lost, see its hook history";
/** A machine's status while its agent is lost (Juju's words); its message. */
export const MACHINE_DOWN = "down";
export const MACHINE_DOWN_MESSAGE = "agent is not communicating with the server";

/** A unit agent's status as shown: the one it last set, or `lost`. */
export type ShownAgentStatus = UnitAgentStatus | typeof AGENT_LOST;

/** A unit agent's status as a person sees it. */
export interface UnitAgentShown {
  agentStatus: ShownAgentStatus;
  agentMessage: string;
  agentStatusData: AgentStatusData;
  agentSince: Date;
}

/** Whether a unit's agent shows as lost: it is, and the unit is not Dead (a Dead unit's agent has finished). */
export const unitAgentLost = (u: { life: string; agentLostSince: Date | null }) => u.agentLostSince !== null && u.life !== Life.Dead;

/** A unit agent's status as shown: `lost` while its agent is, else the status it last set. */
export function shownUnitAgent(u: UnitAgentShown & { life: string; agentLostSince: Date | null }): UnitAgentShown {
  return unitAgentLost(u)
    ? { agentStatus: AGENT_LOST, agentMessage: AGENT_LOST_MESSAGE, agentStatusData: {}, agentSince: u.agentLostSince! }
    : { agentStatus: u.agentStatus, agentMessage: u.agentMessage, agentStatusData: u.agentStatusData, agentSince: u.agentSince };
}

/** A machine's status as a person sees it. */
export interface MachineStatusShown {
  status: string;
  statusMessage: string;
  statusSince: Date;
}

/**
 * Whether a machine shows as down: its agent is lost, and the machine is neither Dead nor still pending (Juju shows
 * neither down: a Dead machine's agent has finished, a pending one's has not started), nor in error (its instance
 * could not be started, or was lost: the error says why its agent is gone, and the provisioner acts on it).
 */
export const machineDown = (m: { life: string; status: string; agentLostSince: Date | null }) =>
  m.agentLostSince !== null && m.life !== Life.Dead && m.status !== "pending" && m.status !== "error";

/** A machine's status as shown: `down` while its agent is lost, else the status last set. */
export function shownMachineStatus(m: MachineStatusShown & { life: string; agentLostSince: Date | null }): MachineStatusShown {
  return machineDown(m)
    ? { status: MACHINE_DOWN, statusMessage: MACHINE_DOWN_MESSAGE, statusSince: m.agentLostSince! }
    : { status: m.status, statusMessage: m.statusMessage, statusSince: m.statusSince };
}
