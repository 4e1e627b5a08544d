import { ErrorCodes } from "../../core/errors.js";
import { Life } from "../../core/life.js";
import { ContainerTypes, MachineJob, MachineStatus, UnitAgentStatus, WorkloadStatus } from "../../core/machine.js";
import { Role, Scope } from "../../core/relation.js";
import { builder } from "../builder.js";

export const LifeEnum = builder.enumType("Life", {
  description: 'Alive → Dying → Dead, never backwards (seed 001: "No such thing can ever change to an earlier state").',
  values: {
    ALIVE: { value: Life.Alive, description: "Created and in use." },
    DYING: { value: Life.Dying, description: "Destroyed by a user; waiting for its impediments to go." },
    DEAD: { value: Life.Dead, description: "No impediments remain; it may be removed at any time." },
  },
});

export const RelationRoleEnum = builder.enumType("RelationRole", {
  values: {
    PROVIDER: { value: Role.Provider },
    REQUIRER: { value: Role.Requirer },
    PEER: { value: Role.Peer },
  },
});

export const RelationScopeEnum = builder.enumType("RelationScope", {
  values: {
    GLOBAL: { value: Scope.Global, description: "Every unit of each side sees every unit of the other." },
    CONTAINER: { value: Scope.Container, description: "A principal and its subordinate see only each other." },
  },
});

export const MachineJobEnum = builder.enumType("MachineJob", {
  values: {
    HOST_UNITS: { value: MachineJob.HostUnits, description: "Principal units may be assigned to the machine." },
    MANAGE_MODEL: { value: MachineJob.ManageModel, description: "Runs the model's provisioner and cleaner; never removed." },
  },
});

export const MachineStatusEnum = builder.enumType("MachineStatus", {
  values: {
    PENDING: { value: MachineStatus.Pending, description: "Waiting for an instance, or for its agent to start." },
    STARTED: { value: MachineStatus.Started, description: "Its agent runs." },
    STOPPED: { value: MachineStatus.Stopped, description: "Its agent has finished with it (Dying, nothing left on it)." },
    ERROR: { value: MachineStatus.Error, description: "No instance could be started: the message says why; `resolveMachine` retries." },
  },
});

export const UnitAgentStatusEnum = builder.enumType("UnitAgentStatus", {
  values: {
    ALLOCATING: { value: UnitAgentStatus.Allocating, description: "Its agent has not reported yet." },
    IDLE: { value: UnitAgentStatus.Idle, description: "Its agent runs, with nothing to do." },
    EXECUTING: { value: UnitAgentStatus.Executing, description: "Its agent is running a hook." },
    ERROR: {
      value: UnitAgentStatus.Error,
      description: 'A hook failed (message `hook failed: "<hook>"`): its agent has stopped until resolveUnit, or removeUnit with force.',
    },
  },
});

export const WorkloadStatusEnum = builder.enumType("WorkloadStatus", {
  description: "What a charm says of its workload (status-set).",
  values: {
    MAINTENANCE: { value: WorkloadStatus.Maintenance, description: "Getting ready or changing: installing, configuring." },
    BLOCKED: { value: WorkloadStatus.Blocked, description: "Needs a person: a missing relation, bad config." },
    WAITING: { value: WorkloadStatus.Waiting, description: "Waiting on something outside it: a machine, a related unit." },
    ACTIVE: { value: WorkloadStatus.Active, description: "Ready and doing its job." },
  },
});

export const ContainerTypeEnum = builder.enumType("ContainerType", {
  values: Object.fromEntries(ContainerTypes.map((type) => [type.toUpperCase(), { value: type }])) as Record<
    Uppercase<(typeof ContainerTypes)[number]>,
    { value: (typeof ContainerTypes)[number] }
  >,
});

builder.enumType("ErrorCode", {
  description: "The stable codes carried in `extensions.code` of every error Lifeline returns for bad input.",
  values: Object.fromEntries(Object.entries(ErrorCodes).map(([code, description]) => [code, { value: code, description }])),
});
