// What a change stream emits. One shape for all three event types keeps clients
// simple (Kubernetes' watch events do the same): a STATE event is one entity as it
// stood at the snapshot revision, a CHANGE event is one row of the log, and a
// BOOKMARK says "you have seen everything up to this revision" without an entity.

import type { Life } from "../core/life.js";
import type { changes } from "../db/schema.js";
import type { Change, ChangeOf, EntityKind, FieldsOf } from "./change.js";

interface Envelope {
  /** For CHANGE, the row's revision; for STATE and BOOKMARK, the revision the stream is at. */
  revision: number;
  committedAt: Date | null;
}

/** A STATE or CHANGE event: one entity's row, typed by its kind. */
export type EntityEvent = Envelope & { type: "state" | "change" } & Change;

export type BookmarkEvent = Envelope & {
  type: "bookmark";
  kind: null;
  entity: null;
  life: null;
  removed: false;
  fields: Record<string, never>;
};

export type ChangeEvent = EntityEvent | BookmarkEvent;
export type EventType = ChangeEvent["type"];

export type ChangeRow = typeof changes.$inferSelect;

/**
 * A log row as an event. The row's kind and fields were written through the
 * constructors in change.ts, so reading them back as a Change is sound.
 */
export const changeEvent = (row: ChangeRow): EntityEvent =>
  ({
    type: "change",
    revision: row.revision,
    kind: row.kind as EntityKind,
    entity: row.entity,
    life: row.life,
    removed: row.removed,
    fields: row.fields,
    committedAt: row.committedAt,
  }) as EntityEvent;

export const stateEvent = <K extends EntityKind>(kind: K, entity: string, life: Life | null, fields: FieldsOf<K>): EntityEvent =>
  ({
    type: "state",
    revision: 0, // set to the snapshot's revision once it is known
    kind,
    entity,
    life,
    removed: false,
    fields,
    committedAt: null,
  }) as Envelope & { type: "state" } & ChangeOf<K>;

export const bookmark = (revision: number): BookmarkEvent => ({
  type: "bookmark",
  revision,
  kind: null,
  entity: null,
  life: null,
  removed: false,
  fields: {},
  committedAt: null,
});
