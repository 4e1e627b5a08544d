// A unit's workload status, as its charm sets it (status-set, run by the unit
// agent's hooks): maintenance, blocked, waiting or active, with a message.
// Juju's status-set takes effect at once, not with the hook's commit.
import { unitWorkloadStatusSet } from "../changes/change.js";
import { LifelineError } from "../core/errors.js";
import type { WorkloadStatus } from "../core/machine.js";
import { unitAlone } from "./footprint.js";
import { unitOperation } from "./lookup.js";
import { setUnitFields } from "./unit-fields.js";
import type { InModel } from "./write/index.js";

/** Juju keeps status messages short enough to show in `juju status`; longer ones are refused, not cut. */
export const WORKLOAD_MESSAGE_LIMIT = 1000;

export interface WorkloadStatusInput extends InModel {
  unit: string;
  status: WorkloadStatus;
  message?: string | null;
}

/** status-set: the unit's workload status and message; nothing is written when neither changes. */
export const setWorkloadStatus = unitOperation(
  "any",
  async (tx, model, unit, input: WorkloadStatusInput) => {
    const message = input.message ?? ""; // checked by checkMessage
    if (unit.workloadStatus === input.status && unit.workloadMessage === message) return unit;
    const updated = setUnitFields(tx, model, unit, { workloadStatus: input.status, workloadMessage: message, statusSince: new Date() });
    tx.record(model.id, unitWorkloadStatusSet(updated));
    return updated;
  },
  checkMessage,
  unitAlone,
);

function checkMessage(input: WorkloadStatusInput): void {
  const length = (input.message ?? "").length;
  if (length > WORKLOAD_MESSAGE_LIMIT)
    throw new LifelineError("INVALID_ARGUMENT", `a status message is at most ${WORKLOAD_MESSAGE_LIMIT} characters, got ${length}`);
}
