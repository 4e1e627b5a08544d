// What a unit's streams say (Juju's uniter remote-state watcher, worker/uniter/
// remotestate): its unit, its application and its application's relations (one
// stream, unitAgent: unitLife and applicationRelations together) and, in each
// relation whose scope it is in, the counterpart units in scope and their
// settings versions (relationUnits).
// Each stream feeds StreamViews; a change worth a pass calls `changed`. The agent
// reads them at the start of a pass, and situation() turns them into the
// resolver's terms.
import {
  type ApplicationInfoFieldsFragment,
  type Life,
  type RelationInfoFieldsFragment,
  RelationUnitsDocument,
  type RelationUnitsSubscription,
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
type MembersEvent = RelationUnitsSubscription["relationUnits"];

/** One relation's counterpart units in scope, and their settings versions (its relationUnits stream). */
interface RelationMembers {
  scopes: StreamView<MembersEvent, ScopeInfoFieldsFragment>;
  settings: StreamView<MembersEvent, SettingsInfoFieldsFragment>;
  unsubscribe: () => void;
}

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
  /** relationUnits per relation whose scope the unit is in. */
  private readonly members = new Map<number, RelationMembers>();
  private readonly unsubscribe: (() => void)[] = [];
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

  /** Opens the unit's own streams; `failed` hears of one that ends (a refusal). */
  watch(failed: (error: Error) => void): void {
    const { model, unit, token } = this.of;
    this.unsubscribe.push(
      this.api.subscribe(UnitAgentDocument, { model, unit }, token, {
        // Every view sees every event: each takes its own kind's, and all end their snapshot at the same BOOKMARK.
        next: (d) => {
          const event = d.unitAgent;
          this.poked([this.ownUnit.apply(event), this.ownApplication.apply(event), this.relations.apply(event)].includes(true));
        },
        failed,
      }),
    );
  }

  /** Closes every stream. */
  stop(): void {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    for (const { unsubscribe } of this.members.values()) unsubscribe();
  }

  private poked(changed: boolean): void {
    if (changed) this.changed();
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

  /** Keeps one relationUnits stream open per relation in `inScope`, and none for the others. */
  watchScopes(inScope: readonly string[]): void {
    const { model, unit, token } = this.of;
    const keep = new Set(inScope.map(Number));
    for (const [id, watch] of this.members)
      if (!keep.has(id)) {
        watch.unsubscribe();
        this.members.delete(id);
      }
    for (const id of keep) {
      if (this.members.has(id)) continue;
      const scopes = new StreamView<MembersEvent, ScopeInfoFieldsFragment>((e) => e.scope);
      const settings = new StreamView<MembersEvent, SettingsInfoFieldsFragment>((e) => e.settings);
      const unsubscribe = this.api.subscribe(RelationUnitsDocument, { model, relation: id, unit }, token, {
        next: (d) => this.poked([scopes.apply(d.relationUnits), settings.apply(d.relationUnits)].includes(true)),
        // A relation removed under the agent: its stream ends with NOT_FOUND; it then counts as gone (every member departs).
        failed: () => {
          scopes.synced = true;
          settings.synced = true;
          this.changed();
        },
      });
      this.members.set(id, { scopes, settings, unsubscribe });
    }
  }

  /** Every relation watched has had its first state (or its stream ended). */
  get scopesSynced(): boolean {
    return [...this.members.values()].every((m) => m.scopes.synced);
  }

  /** What the streams say now, in the resolver's terms. */
  situation(unitLife: Life): Situation {
    const relations: Situation["relations"] = {};
    for (const [id, { scopes, settings }] of this.members) {
      const relation = this.relation(id);
      if (!relation) continue; // removed: gone for the resolver
      const remote: Record<string, number> = {};
      for (const scope of scopes.all()) {
        const unit = scope.info.unitName;
        if (unit === this.of.unit) continue;
        remote[unit] = settings.get(scope.entity)?.info.version ?? 0;
      }
      const peer = relation.info.endpoints?.length === 1;
      relations[id] = { life: relation.life ?? "ALIVE", peer, remote };
    }
    return {
      unitLife,
      configVersion: this.ownApplication.get(this.application)?.info.configVersion ?? 0,
      relations,
    };
  }
}
