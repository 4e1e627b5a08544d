// "Why is it still here?": every entity that is not Alive lists what holds it.
import { applicationBlockers, machineBlockers, modelBlockers, relationBlockers, unitBlockers, type Blocker } from "../../model/blockers.js";
import { builder } from "../builder.js";
import { ApplicationRef } from "./application.js";
import { MachineRef } from "./machine.js";
import { ModelRef } from "./model.js";
import { RelationRef } from "./relation.js";
import { UnitRef } from "./unit.js";

const BlockerKindEnum = builder.enumType("BlockerKind", {
  values: {
    IN_SCOPE: { value: "in-scope" as const, description: "The unit is still in relation scopes its agent must leave." },
    UNITS_IN_SCOPE: { value: "units-in-scope" as const, description: "Units are still in the relation's scope." },
    SUBORDINATES: { value: "subordinates" as const, description: "The unit's subordinates must be removed first." },
    ASSIGNED_UNITS: { value: "assigned-units" as const, description: "Principal units are assigned to the machine." },
    CONTAINERS: { value: "containers" as const, description: "The machine still has containers." },
    UNITS: { value: "units" as const, description: "The application still has units." },
    RELATIONS: { value: "relations" as const, description: "The application is still in relations." },
    APPLICATIONS: { value: "applications" as const, description: "The model still has applications." },
    MACHINES: { value: "machines" as const, description: "The model still has machines." },
    PENDING_CLEANUP: { value: "pending-cleanup" as const, description: "Queued cleanup work for it has not run yet." },
    AGENT: { value: "agent" as const, description: "Nothing holds it: an agent has not acted yet." },
  },
});

const BlockerRef = builder.objectRef<Blocker>("Blocker").implement({
  description: "Something that keeps a Dying or Dead entity from going away, with what to do about it.",
  fields: (t) => ({
    kind: t.expose("kind", { type: BlockerKindEnum }),
    message: t.exposeString("message"),
    entities: t.exposeStringList("entities", { description: "Ids of the entities that hold it (at most 20)." }),
  }),
});

const description = "Empty while Alive; otherwise what still holds it, most direct first.";

builder.objectField(UnitRef, "blockers", (t) => t.field({ type: [BlockerRef], description, resolve: (u, _a, ctx) => unitBlockers(ctx.db, u) }));
builder.objectField(MachineRef, "blockers", (t) => t.field({ type: [BlockerRef], description, resolve: (m, _a, ctx) => machineBlockers(ctx.db, m) }));
builder.objectField(ApplicationRef, "blockers", (t) =>
  t.field({ type: [BlockerRef], description, resolve: (a, _a, ctx) => applicationBlockers(ctx.db, a) }),
);
builder.objectField(RelationRef, "blockers", (t) => t.field({ type: [BlockerRef], description, resolve: (r, _a, ctx) => relationBlockers(ctx.db, r) }));
builder.objectField(ModelRef, "blockers", (t) => t.field({ type: [BlockerRef], description, resolve: (m, _a, ctx) => modelBlockers(ctx.db, m) }));
