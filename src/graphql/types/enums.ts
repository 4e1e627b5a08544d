import { ErrorCodes } from "../../model/errors.js";
import { MachineJob as Jobs } from "../../model/machines.js";
import { builder } from "../builder.js";

export const LifeEnum = builder.enumType("Life", {
  description: 'Alive → Dying → Dead, never backwards (seed 001: "No such thing can ever change to an earlier state").',
  values: {
    ALIVE: { value: "alive" as const, description: "Created and in use." },
    DYING: { value: "dying" as const, description: "Destroyed by a user; waiting for its impediments to go." },
    DEAD: { value: "dead" as const, description: "No impediments remain; it may be removed at any time." },
  },
});

export const RelationRoleEnum = builder.enumType("RelationRole", {
  values: {
    PROVIDER: { value: "provider" as const },
    REQUIRER: { value: "requirer" as const },
    PEER: { value: "peer" as const },
  },
});

export const RelationScopeEnum = builder.enumType("RelationScope", {
  values: {
    GLOBAL: { value: "global" as const, description: "Every unit of each side sees every unit of the other." },
    CONTAINER: { value: "container" as const, description: "A principal and its subordinate see only each other." },
  },
});

export const MachineJobEnum = builder.enumType("MachineJob", {
  values: {
    HOST_UNITS: { value: Jobs.HostUnits, description: "Principal units may be assigned to the machine." },
    MANAGE_MODEL: { value: Jobs.ManageModel, description: "Runs the model's provisioner and cleaner; never removed." },
  },
});

export const ContainerTypeEnum = builder.enumType("ContainerType", {
  values: { LXD: { value: "lxd" as const }, KVM: { value: "kvm" as const } },
});

builder.enumType("ErrorCode", {
  description: "The stable codes carried in `extensions.code` of every error Lifeline returns for bad input.",
  values: Object.fromEntries(Object.entries(ErrorCodes).map(([code, description]) => [code, { value: code, description }])),
});
