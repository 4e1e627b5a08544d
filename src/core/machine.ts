// What a machine may do (Juju's machine jobs) and the containers it may hold.
export const MachineJob = { HostUnits: "JobHostUnits", ManageModel: "JobManageModel" } as const;
export type MachineJob = (typeof MachineJob)[keyof typeof MachineJob];

export const ContainerTypes = ["lxd", "kvm"] as const;
export type ContainerType = (typeof ContainerTypes)[number];
