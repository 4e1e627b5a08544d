// Relation scopes (seed 002): a unit joins by writing its settings and
// recording its membership in one transaction; leaving the scope of a Dying
// relation as its last member removes the relation (seed 000).
import { and, eq, inArray, sql } from "drizzle-orm";
import { scopeEntered, scopeLeft, settingsWritten } from "../changes/change.js";
import { LifelineError, notAlive, shortQuote } from "../core/errors.js";
import { Life } from "../core/life.js";
import { Scope } from "../core/relation.js";
import { relationEndpoints, relationScopes, relationSettings, relations } from "../db/schema.js";
import { sentAhead } from "../db/sent-ahead.js";
import { statement } from "../db/statement.js";
import { entity, touching } from "./footprint.js";
import { getRelation, getUnit, getUnits } from "./lookup.js";
import { removeRelation } from "./relation.js";
import type { ModelRow, RelationEndpointRow, RelationRow, ScopeRow, UnitRow } from "./rows.js";
import { ensureSubordinate } from "./unit.js";
import { type InModel, type ModelKey, modelOperationReading, needsTurnAlone, runsBesideOthers, type Tx } from "./write/index.js";

export interface ScopeInput extends InModel {
  relation: number;
  unit: string;
}

export interface EnterScopeInput extends ScopeInput {
  /** Written as the unit's `private-address` (and `ingress-address`, as Juju does). */
  privateAddress: string;
}

export interface ScopeChange {
  /** The membership entered (null when leaving). */
  member: ScopeRow | null;
  /** The subordinate created for a principal entering a container-scoped relation, if any. */
  subordinate: UnitRow | null;
  /** The last member left a Dying relation, which is now gone. */
  relationRemoved: boolean;
  modelId: string;
}

/**
 * Seed 001: "While a principal unit is Alive, it can enter the scopes of Alive
 * relations, which may cause the creation of subordinate units". Entering
 * again is a no-op. A principal whose subordinate of the counterpart
 * application is still Dying or Dead waits until it is removed
 * (CANNOT_ENTER_SCOPE_YET, from ensureSubordinate). The one-unit case of
 * enterScopes.
 */
export const enterScope = modelOperationReading(
  Life.Alive,
  (tx, model, input: EnterScopeInput) => entryReads(tx, model, input.relation, [input]),
  async (tx, model, input, read) => (await scopesEntered(tx, model, read, [input]))[0]!,
  (input) => membersFootprint(input.relation, [input.unit]),
);

export interface ScopeEntry {
  unit: string;
  /** Written as the unit's `private-address` (and `ingress-address`). */
  privateAddress: string;
}

export interface EnterScopesInput extends InModel {
  relation: number;
  units: readonly ScopeEntry[];
}

/**
 * enterScope for several units of one relation in one transaction, in the order named: all or nothing, the first
 * refusal in that order refusing the call. Their agents' calls gathered into one (src/agents/gathered-calls.ts): the
 * reads and the writes take a statement each however many units (a container-scoped relation's subordinates are made
 * one principal at a time, as ensureSubordinate does).
 */
export const enterScopes = modelOperationReading(
  Life.Alive,
  (tx, model, input: EnterScopesInput) => entryReads(tx, model, input.relation, input.units),
  (tx, model, input, read) => scopesEntered(tx, model, read, input.units),
  (input) =>
    membersFootprint(
      input.relation,
      input.units.map((u) => u.unit),
    ),
);

/**
 * What entering reads, all of it needing only its input: sent together, right behind the model's lock, and awaited
 * in this order so the refusals come as they would one read at a time: the relation's, then the units' (in the order
 * named). The memberships, the endpoints and the settings' versions only for a relation id that is one.
 */
function entryReads(tx: Tx, model: ModelKey, relationId: number, entries: readonly ScopeEntry[]) {
  const names = entries.map((e) => e.unit);
  const valid = validRelationId(relationId);
  const none = Promise.resolve([]);
  const of = { modelId: model.id, relationId, units: names };
  return Promise.resolve({
    relation: sentAhead(getRelation(tx, model, relationId)),
    units: sentAhead(getUnits(tx, model, names)),
    members: valid ? sentAhead(membersAmong(tx.db, of)) : none,
    endpoints: valid ? sentAhead(endpointsOf(tx.db, { modelId: model.id, relationId })) : none,
    versions: valid ? sentAhead(settingsVersionsOf(tx.db, of)) : none,
  });
}

type EntryReads = Awaited<ReturnType<typeof entryReads>>;

/**
 * Each unit in the scope, in the order named (one in it already is left as it is): the memberships, their settings
 * and the relation's count each written in one statement sent with the commit, the changes recorded unit by unit
 * (the membership, then the settings it wrote: a watcher learns of the member before its settings).
 */
async function scopesEntered(tx: Tx, model: ModelRow, read: EntryReads, entries: readonly ScopeEntry[]): Promise<ScopeChange[]> {
  const relation = await read.relation;
  const units = await read.units;
  const members = new Map((await read.members).map((m) => [m.unit, m]));
  const endpoints = await read.endpoints;
  const versions = new Map((await read.versions).map((v) => [v.unit, v.version]));
  const entered: { member: ScopeRow; address: string }[] = [];
  const changes: ScopeChange[] = [];
  for (const [i, unit] of units.entries()) {
    const already = members.get(unit.name);
    if (already) {
      changes.push({ member: already, subordinate: null, relationRemoved: false, modelId: model.id });
      continue;
    }
    const address = entries[i]!.privateAddress;
    const { member, subordinate } = await entry(tx, model, relation, unit, endpoints, address);
    entered.push({ member, address });
    changes.push({ member, subordinate, relationRemoved: false, modelId: model.id });
  }
  if (!entered.length) return changes;
  const of = { modelId: model.id, relationId: relation.id };
  tx.defer(
    insertMembers(tx.db, {
      ...of,
      units: entered.map((e) => e.member.unit),
      applications: entered.map((e) => e.member.application),
      roles: entered.map((e) => e.member.role),
      containers: entered.map((e) => e.member.container),
    }),
  );
  tx.defer(addressesWritten(tx.db, { ...of, units: entered.map((e) => e.member.unit), addresses: entered.map((e) => e.address) }));
  tx.defer(addToMemberCount(tx.db, { modelId: model.id, id: relation.id, count: entered.length }));
  for (const { member } of entered) {
    tx.record(model.id, scopeEntered(member));
    tx.record(model.id, settingsWritten(relation.id, member.unit, (versions.get(member.unit) ?? 0) + 1));
  }
  return changes;
}

/** One unit's entry, checked in this order; for a container-scoped relation, its principal checked or its subordinate made. */
async function entry(
  tx: Tx,
  model: ModelRow,
  relation: RelationRow,
  unit: UnitRow,
  endpoints: readonly RelationEndpointRow[],
  address: string,
): Promise<{ member: ScopeRow; subordinate: UnitRow | null }> {
  if (relation.life !== Life.Alive) throw notAlive("relation", relation.key, relation.life);
  if (unit.life !== Life.Alive) throw notAlive("unit", unit.name, unit.life);
  checkAddress(address);
  const own = endpoints.find((e) => e.application === unit.application);
  if (!own) throw new LifelineError("INVALID_RELATION", `unit ${unit.name} is not of an application in relation "${relation.key}"`);
  const counterpart = endpoints.find((e) => e.application !== unit.application);

  let container: string | null = null;
  let subordinate: UnitRow | null = null;
  if (relation.scope === Scope.Container) {
    needsTurnAlone(tx); // it reads the principal, or adds its subordinate: more than its footprint says
    // A container-scoped relation has one scope per principal unit (seed 002).
    container = unit.principal ?? unit.name;
    if (unit.principal) {
      const principal = await getUnit(tx, model, unit.principal);
      if (principal.application !== counterpart?.application)
        throw new LifelineError(
          "INVALID_RELATION",
          `subordinate ${unit.name}'s principal ${principal.name} is not of an application in relation "${relation.key}"`,
        );
    } else if (counterpart) {
      subordinate = await ensureSubordinate(tx, model, unit, counterpart.application);
    }
  }
  const member: ScopeRow = {
    modelId: model.id,
    relationId: relation.id,
    unit: unit.name,
    application: unit.application,
    role: own.role,
    container,
  };
  return { member, subordinate };
}

/**
 * A scope operation's footprint: the units' own rows written (membership, settings), the relation read (its life and
 * endpoints), its member count added to. So the units of one relation enter and leave side by side.
 */
function membersFootprint(relation: number, units: readonly string[]) {
  return touching(
    ...units.map((unit) => [entity.unit(unit), "write"] as const),
    [entity.relation(relation), "read"],
    [entity.relationMembers(relation), "add"],
  );
}

const validRelationId = (id: number) => Number.isInteger(id) && id >= 0;

/**
 * What leaving reads, needing only its input: sent together, right behind the model's lock, and awaited in this order,
 * so the refusals come as they would one read at a time: the relation's, then the unit's. The membership only for a
 * relation id that is one.
 */
function leavingReads(tx: Tx, model: ModelKey, input: ScopeInput) {
  return Promise.resolve({
    relation: sentAhead(getRelation(tx, model, input.relation)),
    unit: sentAhead(getUnit(tx, model, input.unit)),
    member: validRelationId(input.relation)
      ? sentAhead(membersAmong(tx.db, { modelId: model.id, relationId: input.relation, units: [input.unit] }))
      : Promise.resolve([]),
  });
}

// The scope's writes, built once (src/db/statement.ts): every unit agent enters and leaves.
const insertMembers = statement(["modelId", "relationId", "units", "applications", "roles", "containers"], (db, p) =>
  db.insert(relationScopes).select(
    sql`select ${p.modelId}::uuid, ${p.relationId}::int, given.unit, given.application, given.role::relation_role, given.container
      from unnest(${p.units}::text[], ${p.applications}::text[], ${p.roles}::text[], ${p.containers}::text[])
        as given(unit, application, role, container)`,
  ),
);
const deleteMembers = statement(["modelId", "relationIds", "units"], (db, p) =>
  db
    .delete(relationScopes)
    .where(
      and(
        eq(relationScopes.modelId, p.modelId),
        sql`(${relationScopes.relationId}, ${relationScopes.unit}) in (select * from unnest(${p.relationIds}::int[], ${p.units}::text[]))`,
      ),
    ),
);
const addToMemberCount = statement(["modelId", "id", "count"], (db, p) =>
  db
    .update(relations)
    .set({ unitCount: sql`${relations.unitCount} + ${p.count}` })
    .where(and(eq(relations.modelId, p.modelId), eq(relations.id, p.id)))
    .returning(),
);

const membersAmong = statement(["modelId", "relationId", "units"], (db, p) =>
  db
    .select()
    .from(relationScopes)
    .where(
      and(
        eq(relationScopes.modelId, p.modelId),
        eq(relationScopes.relationId, p.relationId),
        sql`${relationScopes.unit} = any(${p.units}::text[])`,
      ),
    ),
);
/** The versions of units' settings in a relation: they outlive a membership, so a unit entering again has some. */
const settingsVersionsOf = statement(["modelId", "relationId", "units"], (db, p) =>
  db
    .select({ unit: relationSettings.unit, version: relationSettings.version })
    .from(relationSettings)
    .where(
      and(
        eq(relationSettings.modelId, p.modelId),
        eq(relationSettings.relationId, p.relationId),
        sql`${relationSettings.unit} = any(${p.units}::text[])`,
      ),
    ),
);
const endpointsOf = statement(["modelId", "relationId"], (db, p) =>
  db
    .select()
    .from(relationEndpoints)
    .where(and(eq(relationEndpoints.modelId, p.modelId), eq(relationEndpoints.relationId, p.relationId))),
);

/**
 * Merges each unit's address (private-address and ingress-address, as Juju writes them) into its settings for the
 * relation: version 1 for the first, one more each time after.
 */
const addressesWritten = statement(["modelId", "relationId", "units", "addresses"], (db, p) =>
  db
    .insert(relationSettings)
    .select(
      sql`select ${p.modelId}::uuid, ${p.relationId}::int, given.unit,
          jsonb_build_object('private-address', given.address, 'ingress-address', given.address), 1
        from unnest(${p.units}::text[], ${p.addresses}::text[]) as given(unit, address)`,
    )
    .onConflictDoUpdate({
      target: [relationSettings.modelId, relationSettings.relationId, relationSettings.unit],
      set: {
        settings: sql`${relationSettings.settings} || excluded.settings`,
        version: sql`${relationSettings.version} + 1`,
      },
    }),
);

/**
 * An address as Juju's agents report one: an IP (v4 or v6, with an optional zone) or a host name, at most 255
 * characters (a DNS name's limit). Anything else would be stored and handed to every counterpart's hooks.
 */
function checkAddress(address: string): void {
  if (!address) throw new LifelineError("INVALID_ARGUMENT", "privateAddress is required to enter a scope");
  if (address.length > 255 || !/^[A-Za-z0-9._:%-]+$/.test(address))
    throw new LifelineError("INVALID_ARGUMENT", `privateAddress ${shortQuote(address)} is not an IP address or host name`, {
      argument: "privateAddress",
    });
}

/** What leaving a scope decides on, read with the model's lock so that the leaving's writes go with the COMMIT. */
export interface ScopeToLeave {
  member: ScopeRow | undefined;
  /** Undefined when the relation is gone (its memberships went with it). */
  relation: RelationRow | undefined;
}

/**
 * Leaves a scope (false when not in it); the last member of a Dying relation removes it. `read`: the membership and
 * the relation, read before (scopesToLeaveOf, leavingReads), with the model's lock when it can: so nothing waits for
 * the writes' answers. The one-unit case of ScopeLeavings.
 */
async function leaveScopeOf(
  tx: Tx,
  model: ModelRow,
  unit: string,
  read: { member: ScopeRow | undefined; relation: RelationRow },
): Promise<{ left: boolean; relationRemoved: boolean }> {
  const leavings = new ScopeLeavings(tx, model);
  const left = leavings.leave(unit, read);
  const removed = await leavings.done();
  return { left, relationRemoved: removed.has(read.relation.id) };
}

/**
 * Units leaving scopes in one operation (a bulk call's -broken hooks, say). Each leaving is recorded as it is told, in
 * order; its writes go together when done: one statement for every membership, one for each relation's count. Beside
 * other writers, whether they were a Dying relation's last members is the count's answer: awaited once a relation,
 * so the model's turn waits a round trip for the call, not one for each of its units.
 */
export class ScopeLeavings {
  private readonly relations = new Map<number, { relation: RelationRow; leaving: number }>();
  private readonly units: string[] = [];
  private readonly relationIds: number[] = [];

  constructor(
    private readonly tx: Tx,
    private readonly model: ModelRow,
  ) {}

  /** `unit` leaves the relation's scope (false when not in it, and nothing is written). */
  leave(unit: string, { member, relation }: { member: ScopeRow | undefined; relation: RelationRow }): boolean {
    if (!member) return false;
    this.units.push(unit);
    this.relationIds.push(relation.id);
    const counted = this.relations.get(relation.id);
    if (counted) counted.leaving++;
    else this.relations.set(relation.id, { relation, leaving: 1 });
    this.tx.record(this.model.id, scopeLeft(member));
    return true;
  }

  /**
   * Sends the leavings' writes; seed 001's removal of each Dying relation its last member left. The relations
   * removed.
   */
  async done(): Promise<Set<number>> {
    const { tx, model } = this;
    const removed = new Set<number>();
    if (!this.units.length) return removed;
    tx.defer(deleteMembers(tx.db, { modelId: model.id, relationIds: this.relationIds, units: this.units }));
    const counts = [...this.relations.values()].map(({ relation, leaving }) => ({
      relation,
      leaving,
      counted: tx.defer(addToMemberCount(tx.db, { modelId: model.id, id: relation.id, count: -leaving })),
    }));
    for (const { relation, leaving, counted } of counts) {
      if (relation.life === Life.Alive) continue; // an Alive relation is not removed, whatever its count
      // Beside other writers the count read with the lock may not have their leavings yet: whether these were the
      // last of a Dying relation is the decrement's answer to give.
      const after = runsBesideOthers(tx) ? (await counted)[0]! : { ...relation, unitCount: relation.unitCount - leaving };
      // Seed 001: "When the last unit leaves the scope of a Dying relation, it must remove the relation from state."
      if (after.unitCount > 0) continue;
      needsTurnAlone(tx); // the relation's removal writes what the writers beside this one read
      await removeRelation(tx, model, after);
      removed.add(relation.id);
    }
    return removed;
  }
}

/**
 * Up to `limit` members of a Dying relation leave its scope at once (a forced removal, batch by batch); when none
 * remains the relation is removed, whatever its count says (force gets past a wrong one). Whether it was removed.
 */
export async function forceMembersOut(tx: Tx, model: ModelRow, relationId: number, limit: number): Promise<boolean> {
  const ofRelation = and(eq(relationScopes.modelId, model.id), eq(relationScopes.relationId, relationId));
  // One statement: the batch is chosen and deleted together.
  const members = await tx.db
    .delete(relationScopes)
    .where(
      and(
        ofRelation,
        inArray(relationScopes.unit, tx.db.select({ unit: relationScopes.unit }).from(relationScopes).where(ofRelation).limit(limit)),
      ),
    )
    .returning();
  for (const member of members) tx.record(model.id, scopeLeft(member));
  const [relation] = await tx.db
    .update(relations)
    .set({ unitCount: sql`greatest(${relations.unitCount} - ${members.length}, 0)` })
    .where(and(eq(relations.modelId, model.id), eq(relations.id, relationId)))
    .returning();
  if (!relation) return true;
  if (members.length < limit) {
    await removeRelation(tx, model, relation);
    return true;
  }
  return false;
}

/** The unit agent leaves a scope (a no-op when not in it); agents leave scopes in Dying models too: that is how a model empties. */
export const leaveScope = modelOperationReading(
  "any",
  (tx, model, input: ScopeInput) => leavingReads(tx, model, input),
  async (tx, model, _, read): Promise<ScopeChange> => {
    const relation = await read.relation;
    const unit = await read.unit;
    const [member] = await read.member;
    const { relationRemoved } = await leaveScopeOf(tx, model, unit.name, { member, relation });
    return { member: null, subordinate: null, relationRemoved, modelId: model.id };
  },
  // As enterScope's; the last member of a Dying relation, which removes it, takes a turn alone.
  (input) => membersFootprint(input.relation, [input.unit]),
);

/** The scopes a unit is in, each with its relation, as ScopeLeavings decides by them: one statement for all. */
export async function scopesToLeaveOf(tx: Tx, model: ModelRow, unit: string): Promise<{ member: ScopeRow; relation: RelationRow }[]> {
  return tx.db
    .select({ member: relationScopes, relation: relations })
    .from(relationScopes)
    .innerJoin(relations, and(eq(relations.modelId, relationScopes.modelId), eq(relations.id, relationScopes.relationId)))
    .where(and(eq(relationScopes.modelId, model.id), eq(relationScopes.unit, unit)))
    .orderBy(relationScopes.relationId);
}
