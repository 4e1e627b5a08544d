// What the remove operations (removeMachine, removeUnit, removeApplication, removeRelation) share: each takes several
// targets in one transaction, with these options, and answers with an outcome for each; already Dying or Dead targets
// are no-ops. Each is declared beside its entity's type, with an input naming its targets.
import type { InputFieldBuilder } from "@pothos/core";
import type { RemovalResult, RemoveInput } from "../../model/index.js";
import { builder, type Types } from "../builder.js";

export const OutcomeEnum = builder.enumType("RemovalOutcome", {
  values: {
    UNCHANGED: { value: "unchanged" as const, description: "It was already Dying or Dead (forced fallbacks may still be queued)." },
    DYING: { value: "dying" as const, description: "Now Dying: agents finish the job; see its `blockers`." },
    DEAD: { value: "dead" as const },
    REMOVED: { value: "removed" as const, description: "Nothing held it: removed at once." },
  },
});

export const RemovalResultRef = builder.objectRef<RemovalResult>("RemovalResult").implement({
  fields: (t) => ({
    id: t.exposeString("id"),
    outcome: t.expose("outcome", { type: OutcomeEnum }),
  }),
});

/** The options every remove input has after its model and its targets. */
export const removalOptions = (t: InputFieldBuilder<Types, "InputObject">) => ({
  force: t.boolean({
    required: true,
    defaultValue: false,
    description: "Forcibly finish the job if agents do not, keeping every reference consistent.",
  }),
  maxWait: t.int({
    description: "With force: seconds to allow a clean exit before the forced fallback. Omitted or 0: now (Juju's --no-wait).",
  }),
});

/** A remove input as the model's remove operations take it: its model and options, and the targets it names. */
export const removal = (input: { model: string; force: boolean; maxWait?: number | null }, targets: string[]): RemoveInput => ({
  model: input.model,
  targets,
  force: input.force,
  maxWait: input.maxWait ?? null,
});
