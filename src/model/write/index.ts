// Writes: what the model's operations and rules use of transactions. The modules behind it: tx.ts (an operation's view
// of its transaction), operation.ts (operations and their transactions), model-lock.ts (the model's lock), turns.ts
// (a model's writers queue in this process), group-commit.ts (queued writers share a transaction), retry.ts
// (failures a retry cures), row-rewrite.ts (an operation that only rewrites its model's row, as one statement),
// commitments.ts (what a transaction's writers leave to its end), rehearsal.ts (an operation run and rolled back, for
// what it would do).

export { needsTurnAlone, runsBesideOthers } from "./group-commit.js";
export { lockModel, lockModelById, type ModelLifeNeeded, modelRowWritten } from "./model-lock.js";
export {
  chosenBy,
  type InModel,
  type ModelKey,
  modelOperation,
  modelOperationReading,
  modelRowOperation,
  type Operation,
  type Rehearsable,
  transact,
} from "./operation.js";
export type { Rehearsal } from "./rehearsal.js";
export { MAX_ATTEMPTS } from "./retry.js";
export type { ModelRowWrite } from "./row-rewrite.js";
export { UNITS_A_TRANSACTION_IN_PROCESS } from "./turns.js";
export type { Tx } from "./tx.js";
