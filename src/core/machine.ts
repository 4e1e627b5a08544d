// What a machine may do (Juju's machine jobs) and the containers it may hold.
export const MachineJob = { HostUnits: "JobHostUnits", ManageModel: "JobManageModel" } as const;
export type MachineJob = (typeof MachineJob)[keyof typeof MachineJob];

/** Juju's words for a machine's status. */
export const MachineStatus = { Pending: "pending", Started: "started", Stopped: "stopped", Error: "error" } as const;
export type MachineStatus = (typeof MachineStatus)[keyof typeof MachineStatus];

/** What a charm says of its workload with status-set (Juju's workload status; "waiting" until the unit's machine is up). */
export const WorkloadStatus = { Maintenance: "maintenance", Blocked: "blocked", Waiting: "waiting", Active: "active" } as const;
export type WorkloadStatus = (typeof WorkloadStatus)[keyof typeof WorkloadStatus];

/** Juju's words for a unit agent's status: `allocating` until its agent first reports; `error` once a hook failed, until resolved. */
export const UnitAgentStatus = { Allocating: "allocating", Idle: "idle", Executing: "executing", Error: "error" } as const;
export type UnitAgentStatus = (typeof UnitAgentStatus)[keyof typeof UnitAgentStatus];

export const ContainerTypes = ["lxd", "kvm"] as const;
export type ContainerType = (typeof ContainerTypes)[number];
