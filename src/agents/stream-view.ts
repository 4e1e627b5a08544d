// The entities a stream covers, as an agent sees them: built from any of the
// change subscriptions (changes, unitLife, applicationRelations, ...). The
// stream's first events are the full state (STATE events, then a BOOKMARK);
// later CHANGE events carry what changed. A resubscription (after a reconnect)
// starts over with a full state, which replaces the view, so an agent always
// reconciles against where things stand.
import type { ChangeEventFragment, EntityKind, Life } from "../client/graphql.js";

export interface EntityView {
  kind: EntityKind;
  entity: string;
  life: Life | null;
  /** Every field the stream has told of, latest value first merged in. */
  fields: Record<string, unknown>;
}

const keyOf = (kind: EntityKind, entity: string) => `${kind} ${entity}`;

export class StreamView {
  private readonly entities = new Map<string, EntityView>();
  /** The snapshot being read (between a stream's first STATE event and its BOOKMARK). */
  private incoming: Map<string, EntityView> | null = null;
  /** True once a full state has been read: before that, an agent has nothing to reconcile. */
  synced = false;

  get(kind: EntityKind, entity: string): EntityView | undefined {
    return this.entities.get(keyOf(kind, entity));
  }

  all(kind: EntityKind): EntityView[] {
    return [...this.entities.values()].filter((e) => e.kind === kind);
  }

  /** Applies one event; true when the view changed in a way worth reconciling. */
  apply(event: ChangeEventFragment): boolean {
    if (event.type === "STATE") {
      this.incoming ??= new Map();
      if (event.kind && event.entity) this.incoming.set(keyOf(event.kind, event.entity), merge(undefined, event));
      return false;
    }
    if (event.type === "BOOKMARK") {
      if (!this.incoming && this.synced) return false; // an idle stream's bookmark
      // The end of a snapshot: it replaces whatever came before (possibly nothing: an empty snapshot).
      this.entities.clear();
      for (const [key, entity] of this.incoming ?? []) this.entities.set(key, entity);
      this.incoming = null;
      this.synced = true;
      return true;
    }
    if (!event.kind || !event.entity) return false;
    const key = keyOf(event.kind, event.entity);
    if (event.removed) this.entities.delete(key);
    else this.entities.set(key, merge(this.entities.get(key), event));
    return this.synced;
  }
}

function merge(previous: EntityView | undefined, event: ChangeEventFragment): EntityView {
  return {
    kind: event.kind!,
    entity: event.entity!,
    life: event.life ?? previous?.life ?? null,
    fields: { ...previous?.fields, ...(event.fields as Record<string, unknown>) },
  };
}
