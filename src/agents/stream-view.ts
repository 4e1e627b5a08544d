// The entities of one kind a stream covers, as an agent sees them: built from any
// of the change subscriptions (changes, unitLife, applicationRelations, ...). A
// stream of several kinds feeds one view per kind, each reading the field of its
// kind (`event.unit`, `event.relation`), typed by the subscription's selection.
// The stream's first events are the full state (STATE events, then a BOOKMARK);
// later CHANGE events give the fields named in `changed`, merged into what the view
// holds. A resubscription (after a reconnect) starts over with a full state, which
// replaces the view, so an agent always reconciles against where things stand.
import type { ChangeType, Life } from "../client/graphql.js";

/** A stream event's envelope, as every subscription's selection gives it (schema/operations/changes.graphql). */
export interface StreamEvent {
  type: ChangeType;
  entity: string | null;
  life: Life | null;
  removed: boolean;
  changed: string[];
}

export interface EntityView<I> {
  entity: string;
  life: Life | null;
  /** Every field the stream has told of, the latest value of each. */
  info: I;
}

export class StreamView<E extends StreamEvent, I extends object> {
  private readonly entities = new Map<string, EntityView<I>>();
  /** The snapshot being read (between a stream's first STATE event and its BOOKMARK). */
  private incoming: Map<string, EntityView<I>> | null = null;
  /** True once a full state has been read: before that, an agent has nothing to reconcile. */
  synced = false;

  /** `infoOf`: the event's entity when it is of this view's kind (the field of the kind's name), else null. */
  constructor(private readonly infoOf: (event: E) => I | null | undefined) {}

  get(entity: string): EntityView<I> | undefined {
    return this.entities.get(entity);
  }

  all(): EntityView<I>[] {
    return [...this.entities.values()];
  }

  /** Applies one event; true when the view changed in a way worth reconciling. */
  apply(event: E): boolean {
    const info = this.infoOf(event);
    if (event.type === "STATE") {
      this.incoming ??= new Map();
      if (info && event.entity) this.incoming.set(event.entity, { entity: event.entity, life: event.life, info });
      return false;
    }
    if (event.type === "BOOKMARK") {
      if (!this.incoming && this.synced) return false; // an idle stream's bookmark
      // The end of a snapshot: it replaces whatever came before (possibly nothing of this kind).
      this.entities.clear();
      for (const [key, entity] of this.incoming ?? []) this.entities.set(key, entity);
      this.incoming = null;
      this.synced = true;
      return true;
    }
    if (!info || !event.entity) return false;
    if (event.removed) this.entities.delete(event.entity);
    else this.entities.set(event.entity, merged(this.entities.get(event.entity), event, info));
    return this.synced;
  }
}

/** The entity as it stands after the event: the fields it names in `changed` over what was known. */
function merged<I extends object>(previous: EntityView<I> | undefined, event: StreamEvent, info: I): EntityView<I> {
  if (!previous) return { entity: event.entity!, life: event.life, info };
  const next = { ...previous.info };
  for (const field of event.changed) if (field in info) Reflect.set(next, field, Reflect.get(info, field));
  return { entity: previous.entity, life: event.life ?? previous.life, info: next };
}
