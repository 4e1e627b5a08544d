// A unit agent (Juju's uniter, ../shared/JUJU-AGENTS.md; seed 001 "Agents"),
// with the credentials its deployer issued. It watches its unit and its
// application (unitLife) and its application's relations
// (applicationRelations), and reconciles, one pass at a time:
// - it enters the scope of each Alive relation of its application (a
//   principal entering a container-scoped relation creates its subordinate);
// - it leaves the scopes of relations that are no longer Alive;
// - it sets its unit Dying when its application is Dying, and, as a
//   subordinate, when no Alive container-scoped relation with its principal's
//   application remains;
// - Dying, it leaves every scope, waits until its subordinates are removed,
//   and sets its unit Dead; then it stops for good (its deployer removes it);
// - as a principal, it deploys its subordinates (their agents run beside it,
//   sharing its addresses, seed 003), removes those never deployed that are no
//   longer Alive, and recalls and removes Dead ones.
// Which scopes it is in is read from the server when it starts, never from
// local files, so an agent redeployed with nothing local still departs its
// relations (the seeds' hardware-failure BUG).
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import {
  ApplicationRelationsDocument,
  ApplicationScopesDocument,
  EnterScopeDocument,
  IssueUnitCredentialsDocument,
  LeaveScopeDocument,
  RemoveDeadUnitDocument,
  SetUnitAgentStatusDocument,
  SetUnitDeadDocument,
  SetUnitDyingDocument,
  UnitLifeDocument,
} from "../client/graphql.js";
import { Scope } from "../core/relation.js";
import { type AgentConnection, ApiError } from "./connection.js";
import { SerialPasses } from "./serial.js";
import { StreamView } from "./stream-view.js";

export interface UnitAgentCredentials {
  model: string;
  unit: string;
  tag: string;
  token: string;
}

/** A unit as its deployer sees it (from the machine's machineUnits stream). */
export interface DeployedUnitView {
  life: string;
  machineId: string | null;
  principal: string | null;
  agentStatus: string;
}

export interface UnitAgentOptions {
  /** The address the unit publishes as its `private-address` (its machine's; a subordinate shares its principal's). */
  privateAddress: string;
  log?: (line: string) => void;
}

const applicationOf = (unit: string) => unit.slice(0, unit.lastIndexOf("/"));

/** "app:endpoint" strings, as relation change rows carry them, to the applications they name. */
const applicationsIn = (endpoints: unknown) => (Array.isArray(endpoints) ? endpoints.map((e) => String(e).split(":")[0]!) : []);

export class UnitAgent {
  private readonly own = new StreamView();
  private readonly relations = new StreamView();
  /** The relations whose scope the unit is in: from the server at start, then kept by the agent's own acts. */
  private scopes: Set<number> | null = null;
  /** Units on the machine, from the deployer's stream: a principal's subordinates are among them. */
  private units: ReadonlyMap<string, DeployedUnitView> = new Map();
  /** The agents of the subordinates it deployed, by unit. */
  readonly subordinateAgents = new Map<string, UnitAgent>();
  private readonly unsubscribe: (() => void)[] = [];
  private readonly passes: SerialPasses;
  private readonly log: (line: string) => void;
  private done = false;
  private finish: () => void = () => {};
  /** Settles once the agent has stopped (its unit is Dead or gone, or it was told to). */
  readonly finished = new Promise<void>((resolve) => {
    this.finish = resolve;
  });

  constructor(
    private readonly api: AgentConnection,
    readonly credentials: UnitAgentCredentials,
    private readonly options: UnitAgentOptions,
  ) {
    this.log = options.log ?? (() => {});
    this.passes = new SerialPasses(
      () => this.act(),
      (error) => this.log(`${credentials.tag}: ${String(error)}`),
    );
  }

  private get application() {
    return applicationOf(this.credentials.unit);
  }

  async start(): Promise<void> {
    const { model, unit, token, tag } = this.credentials;
    await this.api.request(SetUnitAgentStatusDocument, { input: { model, unit, status: "IDLE" } }, token);
    this.log(`${tag}: started`);
    const failed = (error: Error) => {
      if (!this.done) this.log(`${tag}: a stream ended: ${error.message}`);
    };
    const poke = (changed: boolean) => {
      if (changed) this.passes.poke();
    };
    this.unsubscribe.push(
      this.api.subscribe(UnitLifeDocument, { model, unit }, token, { next: (d) => poke(this.own.apply(d.unitLife)), failed }),
      this.api.subscribe(ApplicationRelationsDocument, { model, application: this.application }, token, {
        next: (d) => poke(this.relations.apply(d.applicationRelations)),
        failed,
      }),
    );
  }

  /** The deployer's view of the units on the machine changed: a principal's subordinates may have. */
  unitsChanged(units: ReadonlyMap<string, DeployedUnitView>): void {
    this.units = units;
    for (const agent of this.subordinateAgents.values()) agent.unitsChanged(units);
    this.passes.poke();
  }

  /** Stops this agent and the subordinate agents it runs (recalled, or the process is stopping). */
  stop(): void {
    if (this.done) return;
    this.done = true;
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    for (const agent of this.subordinateAgents.values()) agent.stop();
    this.subordinateAgents.clear();
    void this.passes.stop().then(this.finish);
  }

  /** Sends an operation as this agent. */
  private call<R, V>(document: TypedDocumentNode<R, V>, variables: V): Promise<R> {
    return this.api.request(document, variables, this.credentials.token);
  }

  /** The server's record of which scopes the unit is in (read once; the agent keeps it current after). */
  private async knownScopes(): Promise<Set<number>> {
    if (this.scopes) return this.scopes;
    const { model, unit } = this.credentials;
    const data = await this.call(ApplicationScopesDocument, { model, application: this.application });
    const relations = data.model?.application?.relations ?? [];
    this.scopes = new Set(relations.filter((r) => r.members.some((m) => m.unitName === unit)).map((r) => r.id));
    return this.scopes;
  }

  private async act(): Promise<void> {
    if (this.done || !this.own.synced || !this.relations.synced) return;
    const { model, unit: name, tag } = this.credentials;
    const unit = this.own.get("UNIT", name);
    if (!unit || unit.life === "DEAD") {
      this.stop(); // its deployer recalls and removes it
      return;
    }
    const principal = (unit.fields.principal as string | null | undefined) ?? null;
    const scopes = await this.knownScopes();

    if (unit.life === "ALIVE" && this.shouldDie(principal)) {
      await this.call(SetUnitDyingDocument, { input: { model, unit: name } });
      this.log(`${tag}: set unit ${name} Dying`);
      return; // the stream brings the new life back
    }

    // Leave the scopes of relations that are no longer Alive, and every scope once Dying.
    for (const id of [...scopes]) {
      const relation = this.relations.get("RELATION", String(id));
      if (unit.life === "ALIVE" && relation?.life === "ALIVE") continue;
      const left = await this.call(LeaveScopeDocument, { input: { model, relation: id, unit: name } });
      scopes.delete(id);
      this.log(`${tag}: left the scope of relation ${id}${left.leaveScope.relationRemoved ? ", which is now removed" : ""}`);
    }

    if (unit.life === "ALIVE")
      for (const relation of this.relations.all("RELATION")) {
        const id = Number(relation.entity);
        if (relation.life !== "ALIVE" || scopes.has(id) || !this.belongsIn(relation.fields, principal)) continue;
        try {
          await this.call(EnterScopeDocument, { input: { model, relation: id, unit: name, privateAddress: this.options.privateAddress } });
          scopes.add(id);
          this.log(`${tag}: entered the scope of relation ${id} "${String(relation.fields.key ?? "")}"`);
        } catch (error) {
          // Dying meanwhile, or a previous subordinate still leaving (CANNOT_ENTER_SCOPE_YET): a later event brings it back here.
          if (!(error instanceof ApiError)) throw error;
          this.log(`${tag}: cannot enter relation ${id} yet: ${error.message}`);
        }
      }

    const subordinates = await this.deploySubordinates();

    if (unit.life === "DYING" && scopes.size === 0 && subordinates === 0) {
      await this.call(SetUnitDeadDocument, { input: { model, unit: name } });
      this.log(`${tag}: unit ${name} is Dead; stopping for good`);
      this.stop();
    }
  }

  /** Seed 001: Dying with its application; as a subordinate, once no Alive container-scoped relation with its principal's application remains. */
  private shouldDie(principal: string | null): boolean {
    if (this.own.get("APPLICATION", this.application)?.life !== "ALIVE") return true;
    if (principal === null) return false;
    const principalApp = applicationOf(principal);
    return !this.relations
      .all("RELATION")
      .some((r) => r.life === "ALIVE" && r.fields.scope === Scope.Container && applicationsIn(r.fields.endpoints).includes(principalApp));
  }

  /** A subordinate takes part only in its principal's container-scoped relations, and in global ones. */
  private belongsIn(fields: Record<string, unknown>, principal: string | null): boolean {
    if (principal === null || fields.scope !== Scope.Container) return true;
    return applicationsIn(fields.endpoints).includes(applicationOf(principal));
  }

  /**
   * The deployer's duties towards the unit's subordinates (seed 001): deploy the
   * Alive ones, remove at once those never deployed that are no longer Alive,
   * recall and remove the Dead ones. Returns how many subordinates remain.
   */
  private async deploySubordinates(): Promise<number> {
    const { model, unit: name, tag } = this.credentials;
    for (const [sub, agent] of this.subordinateAgents)
      if (!this.units.has(sub)) {
        agent.stop(); // removed behind its back: recalled
        this.subordinateAgents.delete(sub);
      }
    let remaining = 0;
    for (const [sub, view] of this.units) {
      if (view.principal !== name) continue;
      remaining++;
      const deployed = this.subordinateAgents.has(sub) || view.agentStatus !== "allocating";
      try {
        if (view.life === "DEAD") {
          this.subordinateAgents.get(sub)?.stop();
          this.subordinateAgents.delete(sub);
          await this.call(RemoveDeadUnitDocument, { input: { model, unit: sub } });
          this.log(`${tag}: recalled and removed subordinate ${sub}`);
        } else if (!deployed && view.life !== "ALIVE") {
          await this.call(SetUnitDeadDocument, { input: { model, unit: sub } });
          await this.call(RemoveDeadUnitDocument, { input: { model, unit: sub } });
          this.log(`${tag}: removed subordinate ${sub}, which was never deployed`);
        } else if (!this.subordinateAgents.has(sub)) {
          const credentials = (await this.call(IssueUnitCredentialsDocument, { input: { model, unit: sub } })).issueUnitCredentials;
          const agent = new UnitAgent(this.api, { model, unit: sub, ...credentials }, this.options);
          this.subordinateAgents.set(sub, agent);
          agent.unitsChanged(this.units);
          await agent.start();
          this.log(`${tag}: deployed subordinate ${sub}`);
        }
      } catch (error) {
        // Still in scope, already gone: the next event brings it back here.
        if (!(error instanceof ApiError)) throw error;
      }
    }
    return remaining;
  }
}
