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
import { findRelation, getRelation, getUnit } from "./lookup.js";
import { removeRelation } from "./relation.js";
import type { ModelRow, RelationRow, ScopeRow, UnitRow } from "./rows.js";
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
 * (CANNOT_ENTER_SCOPE_YET, from ensureSubordinate).
 */
export const enterScope = modelOperationReading(
  Life.Alive,
  (tx, model, input: EnterScopeInput) => scopeReads(tx, model, input, true),
  async (tx, model, input, read): Promise<ScopeChange> => {
    const relation = await read.relation;
    const unit = await read.unit;
    const entered = (member: ScopeRow, subordinate: UnitRow | null): ScopeChange => ({
      member,
      subordinate,
      relationRemoved: false,
      modelId: model.id,
    });
    const [already] = await read.member;
    if (already) return entered(already, null);
    if (relation.life !== Life.Alive) throw notAlive("relation", relation.key, relation.life);
    if (unit.life !== Life.Alive) throw notAlive("unit", unit.name, unit.life);
    checkAddress(input.privateAddress);

    const endpoints = await read.endpoints;
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

    // Sent together with the COMMIT, none of them answered first: the membership (its row is what it inserts), its
    // settings (their version follows the one read with the lock), the relation's count.
    const member: ScopeRow = {
      modelId: model.id,
      relationId: relation.id,
      unit: unit.name,
      application: unit.application,
      role: own.role,
      container,
    };
    tx.defer(insertMember(tx.db, member));
    const settings = { "private-address": input.privateAddress, "ingress-address": input.privateAddress };
    tx.defer(upsertSettings(tx.db, { modelId: model.id, relationId: relation.id, unit: unit.name, settings }));
    const [written] = await read.settings;
    tx.defer(addToMemberCount(tx.db, { modelId: model.id, id: relation.id, count: 1 }));
    // Membership first, then the settings it wrote: a watcher learns of the member before its settings.
    tx.record(model.id, scopeEntered(member));
    tx.record(model.id, settingsWritten(relation.id, unit.name, written ? written.version + 1 : 1));
    return entered(member, subordinate);
  },
  // The unit's membership and settings are its own; of the relation it reads the life and endpoints, and adds one to
  // its member count. So the units of one relation enter side by side.
  membersFootprint,
);

/** A scope operation's footprint: the unit's own rows written, the relation read, its member count added to. */
function membersFootprint(input: ScopeInput) {
  return touching(
    [entity.unit(input.unit), "write"],
    [entity.relation(input.relation), "read"],
    [entity.relationMembers(input.relation), "add"],
  );
}

/**
 * What a scope operation reads, all of it needing only its input: sent together, right behind the model's lock
 * (modelOperationReading), and awaited in this order, so the refusals come as they would one read at a time: the
 * relation's, then the unit's. The membership, and the endpoints and the unit's settings' version (`forEntry`), only
 * for a relation id that is one.
 */
function scopeReads(tx: Tx, model: ModelKey, input: ScopeInput, forEntry: boolean) {
  const relation = sentAhead(getRelation(tx, model, input.relation));
  const unit = sentAhead(getUnit(tx, model, input.unit));
  const valid = Number.isInteger(input.relation) && input.relation >= 0;
  const none = Promise.resolve([]);
  return Promise.resolve({
    relation,
    unit,
    member: valid ? sentAhead(memberRow(tx.db, { modelId: model.id, relationId: input.relation, unit: input.unit })) : none,
    endpoints: valid && forEntry ? sentAhead(endpointsOf(tx.db, { modelId: model.id, relationId: input.relation })) : none,
    settings:
      valid && forEntry ? sentAhead(settingsVersionOf(tx.db, { modelId: model.id, relationId: input.relation, unit: input.unit })) : none,
  });
}

// The scope's writes, built once (src/db/statement.ts): every unit agent enters and leaves.
const insertMember = statement(["modelId", "relationId", "unit", "application", "role", "container"], (db, p) =>
  db.insert(relationScopes).values({
    modelId: p.modelId,
    relationId: p.relationId,
    unit: p.unit,
    application: p.application,
    role: p.role,
    container: p.container,
  }),
);
const deleteMember = statement(["modelId", "relationId", "unit"], (db, p) =>
  db
    .delete(relationScopes)
    .where(and(eq(relationScopes.modelId, p.modelId), eq(relationScopes.relationId, p.relationId), eq(relationScopes.unit, p.unit))),
);
const addToMemberCount = statement(["modelId", "id", "count"], (db, p) =>
  db
    .update(relations)
    .set({ unitCount: sql`${relations.unitCount} + ${p.count}` })
    .where(and(eq(relations.modelId, p.modelId), eq(relations.id, p.id)))
    .returning(),
);

const memberRow = statement(["modelId", "relationId", "unit"], (db, p) =>
  db
    .select()
    .from(relationScopes)
    .where(and(eq(relationScopes.modelId, p.modelId), eq(relationScopes.relationId, p.relationId), eq(relationScopes.unit, p.unit))),
);
/** The version of a unit's settings in a relation: they outlive its membership, so a unit entering again has some. */
const settingsVersionOf = statement(["modelId", "relationId", "unit"], (db, p) =>
  db
    .select({ version: relationSettings.version })
    .from(relationSettings)
    .where(and(eq(relationSettings.modelId, p.modelId), eq(relationSettings.relationId, p.relationId), eq(relationSettings.unit, p.unit))),
);
const endpointsOf = statement(["modelId", "relationId"], (db, p) =>
  db
    .select()
    .from(relationEndpoints)
    .where(and(eq(relationEndpoints.modelId, p.modelId), eq(relationEndpoints.relationId, p.relationId))),
);

/** Merges `settings` into the unit's settings for the relation: version 1 for the first, one more each time after. */
const upsertSettings = statement(["modelId", "relationId", "unit", "settings"], (db, p) =>
  db
    .insert(relationSettings)
    .values({ modelId: p.modelId, relationId: p.relationId, unit: p.unit, settings: p.settings, version: 1 })
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

/** Sends the reads of ScopeToLeave together, for a well-formed relation id. */
export async function scopeToLeave(tx: Tx, model: ModelKey, relationId: number, unit: string): Promise<ScopeToLeave> {
  const member = sentAhead(memberRow(tx.db, { modelId: model.id, relationId, unit }));
  const relation = sentAhead(findRelation(tx, model, relationId));
  return { member: (await member)[0], relation: await relation };
}

/**
 * Leaves a scope (false when not in it); the last member of a Dying relation removes it. `read`: the membership and
 * the relation, read before (scopeToLeave, scopesToLeaveOf), with the model's lock when it can: so nothing waits for
 * the writes' answers.
 */
export async function leaveScopeOf(
  tx: Tx,
  model: ModelRow,
  unit: string,
  read: { member: ScopeRow | undefined; relation: RelationRow },
): Promise<{ left: boolean; relationRemoved: boolean }> {
  const { member, relation } = read;
  if (!member) return { left: false, relationRemoved: false };
  tx.defer(deleteMember(tx.db, { modelId: model.id, relationId: relation.id, unit }));
  const counted = tx.defer(addToMemberCount(tx.db, { modelId: model.id, id: relation.id, count: -1 }));
  // Beside other writers the count read with the lock may not have their leavings yet: whether this member is the
  // last of a Dying relation is the decrement's answer to give (an Alive relation is not removed, whatever its count).
  if (relation.life !== Life.Alive && runsBesideOthers(tx)) return left(tx, model, member, (await counted)[0]!);
  return left(tx, model, member, { ...relation, unitCount: relation.unitCount - 1 });
}

/** A member has left (`relation` counts it out): the change, and seed 001's removal of a Dying relation with none left. */
async function left(tx: Tx, model: ModelRow, member: ScopeRow, relation: RelationRow): Promise<{ left: true; relationRemoved: boolean }> {
  tx.record(model.id, scopeLeft(member));
  // Seed 001: "When the last unit leaves the scope of a Dying relation, it must remove the relation from state."
  if (relation.life !== Life.Alive && relation.unitCount <= 0) {
    needsTurnAlone(tx); // the relation's removal writes what the writers beside this one read
    await removeRelation(tx, model, relation);
    return { left: true, relationRemoved: true };
  }
  return { left: true, relationRemoved: false };
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
  (tx, model, input: ScopeInput) => scopeReads(tx, model, input, false),
  async (tx, model, _, read): Promise<ScopeChange> => {
    const relation = await read.relation;
    const unit = await read.unit;
    const [member] = await read.member;
    const { relationRemoved } = await leaveScopeOf(tx, model, unit.name, { member, relation });
    return { member: null, subordinate: null, relationRemoved, modelId: model.id };
  },
  // As enterScope's: the unit's own rows, the relation read, one taken from its member count (the last member of a
  // Dying relation, which removes it, takes a turn alone). So the units of one relation leave side by side.
  membersFootprint,
);

/** The scopes a unit is in, each with its relation, as leaveScopeOf decides by them: one statement for all. */
export async function scopesToLeaveOf(tx: Tx, model: ModelRow, unit: string): Promise<{ member: ScopeRow; relation: RelationRow }[]> {
  return tx.db
    .select({ member: relationScopes, relation: relations })
    .from(relationScopes)
    .innerJoin(relations, and(eq(relations.modelId, relationScopes.modelId), eq(relations.id, relationScopes.relationId)))
    .where(and(eq(relationScopes.modelId, model.id), eq(relationScopes.unit, unit)))
    .orderBy(relationScopes.relationId);
}
