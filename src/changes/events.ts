// What a change stream emits. One shape for all three event types keeps clients
// simple (Kubernetes' watch events do the same): a STATE event is one entity as it
// stood at the snapshot revision, a CHANGE event is one row of the log, and a
// BOOKMARK says "you have seen everything up to this revision" without an entity.
import type { changes } from "../db/schema.js";
import type { EntityKind, Life } from "./log.js";

export type EventType = "state" | "change" | "bookmark";

export interface ChangeEvent {
  type: EventType;
  /** For CHANGE, the row's revision; for STATE and BOOKMARK, the revision the stream is at. */
  revision: number;
  kind: EntityKind | null;
  entity: string | null;
  life: Life | null;
  removed: boolean;
  fields: Record<string, unknown>;
  committedAt: Date | null;
}

export type ChangeRow = typeof changes.$inferSelect;

export const changeEvent = (row: ChangeRow): ChangeEvent => ({
  type: "change",
  revision: row.revision,
  kind: row.kind as EntityKind,
  entity: row.entity,
  life: row.life,
  removed: row.removed,
  fields: row.fields,
  committedAt: row.committedAt,
});

export const stateEvent = (kind: EntityKind, entity: string, life: Life | null, fields: Record<string, unknown>): ChangeEvent => ({
  type: "state",
  revision: 0, // set to the snapshot's revision once it is known
  kind,
  entity,
  life,
  removed: false,
  fields,
  committedAt: null,
});

export const bookmark = (revision: number): ChangeEvent => ({
  type: "bookmark",
  revision,
  kind: null,
  entity: null,
  life: null,
  removed: false,
  fields: {},
  committedAt: null,
});
