// What the remove operations (removeMachine, removeUnit, removeApplication, removeRelation) share: each takes several
// targets in one transaction, with these options, and answers with an outcome for each; already Dying or Dead targets
// are no-ops. Each is declared beside its entity's type, with an input naming its targets. With dryRun, each answers
// what it would do and keeps nothing: the outcomes, and for each target the change rows it would record (a stream's
// vocabulary: kind, entity, life, removed) and what would then hold it. The answer keeps its shape, so a client prints
// a dry run and a real call alike, and a dry run's outcomes are the real call's.
import type { InputFieldBuilder } from "@pothos/core";
import type { RemovalEffect, RemovalResult, RemoveInput } from "../../model/index.js";
import { builder, type Types } from "../builder.js";
import { BlockerRef } from "./blocker.js";
import { EntityKindEnum } from "./changes.js";
import { LifeEnum } from "./enums.js";

export const OutcomeEnum = builder.enumType("RemovalOutcome", {
  values: {
    UNCHANGED: { value: "unchanged" as const, description: "It was already Dying or Dead (forced fallbacks may still be queued)." },
    DYING: { value: "dying" as const, description: "Now Dying: agents finish the job; see its `blockers`." },
    DEAD: { value: "dead" as const },
    REMOVED: { value: "removed" as const, description: "Nothing held it: removed at once." },
  },
});

const RemovalEffectRef = builder.objectRef<RemovalEffect>("RemovalEffect").implement({
  description: "A change a dry run's removal would make: a change row it would record, without its fields.",
  fields: (t) => ({
    kind: t.expose("kind", { type: EntityKindEnum }),
    entity: t.exposeString("entity", { description: "Its id in the model, as a change stream gives it." }),
    life: t.expose("life", { type: LifeEnum, nullable: true, description: "The life it would have; null for rows without one." }),
    removed: t.exposeBoolean("removed", { description: "Whether it would be removed (a cleanup: done)." }),
    cleanup: t.exposeString("cleanup", {
      nullable: true,
      description:
        "A cleanup's: its kind and target (\"force-unit wordpress/0\"). Its id (`entity`) is the dry run's own: the real call queues it under another.",
    }),
  }),
});

export const RemovalResultRef = builder.objectRef<RemovalResult>("RemovalResult").implement({
  fields: (t) => ({
    id: t.exposeString("id"),
    outcome: t.expose("outcome", { type: OutcomeEnum }),
    dryRun: t.boolean({ description: "Whether this was a dry run: nothing was kept.", resolve: (r) => r.effects !== undefined }),
    effects: t.expose("effects", {
      type: [RemovalEffectRef],
      nullable: true,
      description:
        "A dry run's: what removing this target would change, in order (what becomes Dying or Dead, is removed, and the cleanups queued). Null for a real call: follow `changes`.",
    }),
    blockers: t.expose("blockers", {
      type: [BlockerRef],
      nullable: true,
      description: "A dry run's: what would then hold it (empty once removed). Null for a real call: ask the entity.",
    }),
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
  dryRun: t.boolean({
    required: true,
    defaultValue: false,
    description:
      "Answer what it would do and keep nothing: the same rules and refusals, in a transaction that is rolled back. Forced cleanups it would queue are listed, not run.",
  }),
});

/** A remove input as the model's remove operations take it: its model and options, and the targets it names. */
export const removal = (
  input: { model: string; force: boolean; maxWait?: number | null; dryRun: boolean },
  targets: string[],
): RemoveInput => ({
  model: input.model,
  targets,
  force: input.force,
  maxWait: input.maxWait ?? null,
  dryRun: input.dryRun,
});
