// What a unit's stream says (Juju's uniter remote-state watcher, worker/uniter/
// remotestate): its unit, its application, its application's relations and, in each
// of them, the counterpart units in scope and their settings versions: one stream,
// unitAgent (unitLife, applicationRelations and relationMembers together).
// The stream feeds StreamViews; a change worth a pass calls `changed`. The agent
// reads them at the start of a pass, and situation() turns them into the
// resolver's terms.
import {
  type ApplicationInfoFieldsFragment,
  type Life,
  type RelationInfoFieldsFragment,
  type ScopeInfoFieldsFragment,
  type SettingsInfoFieldsFragment,
  UnitAgentDocument,
  type UnitAgentSubscription,
  type UnitInfoFieldsFragment,
} from "../../client/graphql.js";
import { applicationOfUnit } from "../../core/unit-name.js";
import type { AgentConnection } from "../connection.js";
import { type EntityView, StreamView } from "../stream-view.js";
import type { HookSurroundings } from "./hook-operation.js";
import type { RelationView, Situation } from "./resolver.js";

type UnitAgentEvent = UnitAgentSubscription["unitAgent"];

/** Whose streams: the unit, and the credentials it subscribes with. */
export interface StreamsOf {
  model: string;
  unit: string;
  token: string;
}

export class RemoteState implements HookSurroundings {
  private readonly ownUnit = new StreamView<UnitAgentEvent, UnitInfoFieldsFragment>((e) => e.unit);
  private readonly ownApplication = new StreamView<UnitAgentEvent, ApplicationInfoFieldsFragment>((e) => e.application);
  private readonly relations = new StreamView<UnitAgentEvent, RelationInfoFieldsFragment>((e) => e.relation);
  /** The members the unit sees in its application's relations, by "<relation id>:<unit>", and their settings versions. */
  private readonly scopes = new StreamView<UnitAgentEvent, ScopeInfoFieldsFragment>((e) => e.scope);
  private readonly settings = new StreamView<UnitAgentEvent, SettingsInfoFieldsFragment>((e) => e.settings);
  private readonly views = [this.ownUnit, this.ownApplication, this.relations, this.scopes, this.settings];
  /** The relations whose scope the unit is in: the ones its situation tells of. */
  private inScope = new Set<number>();
  private unsubscribe: (() => void) | null = null;
  /** Its application's name. */
  readonly application: string;

  constructor(
    private readonly api: AgentConnection,
    private readonly of: StreamsOf,
    /** Called when a stream changed what the views hold in a way worth a pass. */
    private readonly changed: () => void,
  ) {
    this.application = applicationOfUnit(of.unit);
  }

  /** Opens the unit's stream; `failed` hears of its end (a refusal). */
  watch(failed: (error: Error) => void): void {
    const { model, unit, token } = this.of;
    this.unsubscribe = this.api.subscribe(UnitAgentDocument, { model, unit }, token, {
      // Every view sees every event: each takes its own kind's, and all end their snapshot at the same BOOKMARK.
      next: (d) => {
        let changed = false;
        for (const view of this.views) changed = view.apply(d.unitAgent) || changed;
        if (changed) this.changed();
      },
      failed,
    });
  }

  /** Closes the stream. */
  stop(): void {
    this.unsubscribe?.();
  }

  /** Its unit's and its application's relations' first states have come: there is something to reconcile. */
  get synced(): boolean {
    return this.ownUnit.synced && this.relations.synced;
  }

  /** Its unit, as its stream shows it (undefined once removed). */
  get unit(): EntityView<UnitInfoFieldsFragment> | undefined {
    return this.ownUnit.get(this.of.unit);
  }

  /** Its application's relations. */
  get applicationRelations(): RelationView[] {
    return this.relations.all();
  }

  relation(id: number): RelationView | undefined {
    return this.relations.get(String(id));
  }

  principal(): string | null {
    return this.unit?.info.principalName ?? null;
  }

  endpointsOf(relation: number): readonly { applicationName: string; name: string }[] {
    return this.relation(relation)?.info.endpoints ?? [];
  }

  /** The relations whose scope the unit is in now: what `situation` tells of (the stream carries every relation's members). */
  setInScope(relations: readonly string[]): void {
    this.inScope = new Set(relations.map(Number));
  }

  /** What the stream says now, in the resolver's terms. */
  situation(unitLife: Life): Situation {
    const relations: Situation["relations"] = {};
    for (const id of this.inScope) {
      const relation = this.relation(id);
      if (!relation) continue; // removed: gone for the resolver
      relations[id] = { life: relation.life ?? "ALIVE", peer: relation.info.endpoints?.length === 1, remote: {} };
    }
    for (const scope of this.scopes.all()) {
      const remote = relations[scope.info.relationId]?.remote;
      if (remote) remote[scope.info.unitName] = this.settings.get(scope.entity)?.info.version ?? 0;
    }
    return {
      unitLife,
      configVersion: this.ownApplication.get(this.application)?.info.configVersion ?? 0,
      relations,
    };
  }
}
