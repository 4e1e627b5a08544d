// "Why is it still here?": every entity that is not Alive lists what holds it.
// Each entity's type file adds its `blockers` field from the model's checks.
import type { Blocker, BlockerKind } from "../../model/index.js";
import { builder } from "../builder.js";

const BlockerKindEnum = builder.enumType("BlockerKind", {
  values: {
    IN_SCOPE: { value: "in-scope", description: "The unit is still in relation scopes its agent must leave." },
    UNITS_IN_SCOPE: { value: "units-in-scope", description: "Units are still in the relation's scope." },
    SUBORDINATES: { value: "subordinates", description: "The unit's subordinates must be removed first." },
    ASSIGNED_UNITS: { value: "assigned-units", description: "Principal units are assigned to the machine." },
    CONTAINERS: { value: "containers", description: "The machine still has containers." },
    UNITS: { value: "units", description: "The application still has units." },
    RELATIONS: { value: "relations", description: "The application is still in relations." },
    APPLICATIONS: { value: "applications", description: "The model still has applications." },
    MACHINES: { value: "machines", description: "The model still has machines." },
    PENDING_CLEANUP: { value: "pending-cleanup", description: "Queued cleanup work for it has not run yet." },
    HOOK_FAILED: {
      value: "hook-failed",
      description: "The unit's agent stopped on a failed hook: resolveUnit (retry or skip it), or removeUnit with force.",
    },
    AGENT_LOST: {
      value: "agent-lost",
      description:
        "The agent it waits for is lost (not connected for longer than the grace period), since the time the message gives: it carries on if it comes back; force removes it anyway.",
    },
    AGENT: { value: "agent", description: "Nothing holds it: an agent has not acted yet." },
  } satisfies Record<string, { value: BlockerKind; description: string }>,
});

export const BlockerRef = builder.objectRef<Blocker>("Blocker").implement({
  description: "Something that keeps a Dying or Dead entity from going away, with what to do about it.",
  fields: (t) => ({
    kind: t.expose("kind", { type: BlockerKindEnum }),
    message: t.exposeString("message"),
    entities: t.exposeStringList("entities", { description: "Ids of the entities that hold it (at most 20)." }),
  }),
});

export const blockersDescription = "Empty while Alive; otherwise what still holds it, most direct first.";
