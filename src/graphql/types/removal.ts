// The remove operations, named after Juju's commands. Each takes several
// targets in one transaction; already Dying or Dead targets are no-ops.
import {
  DEFAULT_MODEL,
  type Operation,
  type RemovalResult,
  type RemoveInput,
  removeApplications,
  removeMachines,
  removeRelations,
  removeUnits,
} from "../../model/index.js";
import { builder } from "../builder.js";

export const OutcomeEnum = builder.enumType("RemovalOutcome", {
  values: {
    UNCHANGED: { value: "unchanged" as const, description: "It was already Dying or Dead (forced fallbacks may still be queued)." },
    DYING: { value: "dying" as const, description: "Now Dying: agents finish the job; see its `blockers`." },
    DEAD: { value: "dead" as const },
    REMOVED: { value: "removed" as const, description: "Nothing held it: removed at once." },
  },
});

const RemovalResultRef = builder.objectRef<RemovalResult>("RemovalResult").implement({
  fields: (t) => ({
    id: t.exposeString("id"),
    outcome: t.expose("outcome", { type: OutcomeEnum }),
  }),
});

function removeInput(name: string, targets: string, what: string) {
  return builder.inputType(name, {
    fields: (t) => ({
      model: t.string({ required: true, defaultValue: DEFAULT_MODEL }),
      [targets]: t.stringList({ required: true, description: what }),
      force: t.boolean({
        required: true,
        defaultValue: false,
        description: "Forcibly finish the job if agents do not, keeping every reference consistent.",
      }),
      maxWait: t.int({
        description: "With force: seconds to allow a clean exit before the forced fallback. Omitted or 0: now (Juju's --no-wait).",
      }),
    }),
  });
}

type RemoveFields = { model: string; force: boolean; maxWait?: number | null } & Record<string, unknown>;
const toInput = (input: RemoveFields, targets: string): RemoveInput => ({
  model: input.model,
  targets: input[targets] as string[],
  force: input.force,
  maxWait: input.maxWait ?? null,
});

const operations: [string, string, string, string, Operation<RemoveInput, RemovalResult[]>, string][] = [
  [
    "removeMachine",
    "RemoveMachineInput",
    "machines",
    'Machine ids, e.g. ["1", "2/lxd/0"].',
    removeMachines,
    "`juju remove-machine`: Dying, for its agent to finish. Refused for JobManageModel, and for assigned units or containers unless forced.",
  ],
  [
    "removeUnit",
    "RemoveUnitInput",
    "units",
    'Unit names, e.g. ["wordpress/0"].',
    removeUnits,
    "`juju remove-unit`: Dying (its subordinates follow), for its agent to finish. Refused for subordinates.",
  ],
  [
    "removeApplication",
    "RemoveApplicationInput",
    "applications",
    "Application names.",
    removeApplications,
    "`juju remove-application`: removed at once when nothing holds it; else Dying, its relations destroyed and its units made Dying in batches.",
  ],
  [
    "removeRelation",
    "RemoveRelationInput",
    "relations",
    'Relation ids ("3"), keys ("wordpress:db mysql:db") or endpoints ("wordpress mysql").',
    removeRelations,
    "`juju remove-relation`: removed at once when no unit is in scope, else Dying until the last leaves. With force, removed now whatever its scope count says. A peer relation is refused (PEER_RELATION): it goes only with its application.",
  ],
];

for (const [field, inputName, targets, what, run, description] of operations) {
  const Input = removeInput(inputName, targets, what);
  builder.mutationField(field, (t) =>
    t.field({
      type: [RemovalResultRef],
      description,
      args: { input: t.arg({ type: Input, required: true }) },
      authScopes: (_root, { input }) => ({ personIn: { role: "operator", model: (input as RemoveFields).model } }),
      resolve: (_root, { input }, ctx) => run(ctx.db, toInput(input as RemoveFields, targets)),
    }),
  );
}
