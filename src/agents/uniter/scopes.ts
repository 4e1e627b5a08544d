// Entering and leaving relation scopes (Juju's relation state tracker, worker/
// uniter/relation/statetracker.go SynchronizeScopes): an Alive unit enters the
// scope of each Alive relation of its application it belongs in (a principal
// entering a container-scoped relation creates its subordinate); a peer relation
// it is leaving, all of whose members have departed, is left without a hook (a
// peer relation gets no -broken). Any other scope is left by committing -broken.
import { LeaveScopeDocument, SetUnitAgentStateDocument } from "../../client/graphql.js";
import { ApiError, type Call } from "../connection.js";
import { ownEndpoint, type RelationView, relationsToLeave, type Situation, type StoredProgress, scopesToEnter } from "./resolver.js";

export interface RelationScopesConfig {
  model: string;
  unit: string;
  /** The agent's tag, in its log lines. */
  tag: string;
  /** Sends an operation as the unit's agent. */
  call: Call;
  /** Enters a relation's scope as the unit's agent (enterScope, perhaps gathered with other agents' entries). */
  enter: (relation: number) => Promise<void>;
  log: (line: string) => void;
}

export class RelationScopes {
  constructor(private readonly config: RelationScopesConfig) {}

  /** Enters the scope of each Alive relation of `application` the unit belongs in and is not in yet, noting it in `progress`. */
  async enter(progress: StoredProgress, relations: readonly RelationView[], application: string, principal: string | null): Promise<void> {
    const { tag, enter, log } = this.config;
    for (const relation of scopesToEnter(relations, progress, principal)) {
      const id = Number(relation.entity);
      try {
        await enter(id);
        progress.relations[id] = { endpoint: ownEndpoint(relation.info, application), members: {}, changedPending: null };
        log(`${tag}: entered the scope of relation ${id} "${relation.info.key ?? ""}"`);
      } catch (error) {
        // Dying meanwhile, or a previous subordinate still leaving (CANNOT_ENTER_SCOPE_YET): a later event brings it back here.
        if (!(error instanceof ApiError)) throw error;
        log(`${tag}: cannot enter relation ${id} yet: ${error.message}`);
      }
    }
  }

  /** Leaves each peer relation the resolver says to leave now, saving `progress` without it after each. */
  async leavePeers(progress: StoredProgress, situation: Situation): Promise<void> {
    const { model, unit, tag, call, log } = this.config;
    for (const id of relationsToLeave(progress, situation)) {
      await this.leave(id);
      delete progress.relations[id];
      await call(SetUnitAgentStateDocument, { input: { model, unit, state: { ...progress } } });
      log(`${tag}: left peer relation ${id}`);
    }
  }

  /** Leaves a relation's scope; a relation already gone (left before a restart, then removed) is left already. */
  private async leave(relation: number): Promise<void> {
    const { model, unit, call } = this.config;
    try {
      await call(LeaveScopeDocument, { input: { model, relation, unit } });
    } catch (error) {
      if (!(error instanceof ApiError && error.code === "NOT_FOUND")) throw error;
    }
  }
}
