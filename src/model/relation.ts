// A relation from `juju integrate` to removal (seed 000 "juju remove-relation",
// seed 001 "Relations"): Juju's endpoint inference, the peer relations `juju
// deploy` creates, and the removal every path that ends a relation shares (the
// user, application destruction, the last unit leaving a Dying relation's
// scope, and force).
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { relationAdded, relationLifeSet, relationRemoved, scopeLeft } from "../changes/change.js";
import { LifelineError } from "../core/errors.js";
import { advance, Life } from "../core/life.js";
import { Role, Scope } from "../core/relation.js";
import { rowsOf } from "../db/connect.js";
import { charms, relationEndpoints, relationScopes, relations } from "../db/schema.js";
import { type Blocker, listed, SHOWN } from "./blocker.js";
import { charmMetadata } from "./charm.js";
import type { CharmEndpoint, CharmMetadata } from "./charm-metadata.js";
import { CLEANUP_BATCH, CleanupKinds, pendingCleanups, queueCleanup } from "./cleanup-queue.js";
import { getAliveApplication } from "./lookup.js";
import type { Outcome } from "./machine.js";
import { checkApplicationName, isRelationName } from "./names.js";
import { addRelationReferences, releaseRelationReference } from "./references.js";
import type { ApplicationRow, ModelRow, Queryable, RelationRow } from "./rows.js";
import { nextSequence } from "./sequences.js";
import { type InModel, type ModelKey, modelOperation, type Tx } from "./write/index.js";

/** An endpoint bound to an application: "wordpress:db". */
export interface Endpoint extends CharmEndpoint {
  application: string;
}

const spell = (e: Pick<Endpoint, "application" | "name">) => `${e.application}:${e.name}`;

/**
 * The canonical key: "<requirer> <provider>" (sorted by role), or the single
 * endpoint of a peer relation. No two relations share one (seed 001).
 */
export function relationKey(endpoints: readonly Endpoint[]): string {
  const rank = { [Role.Requirer]: 0, [Role.Provider]: 1, [Role.Peer]: 2 } as const;
  return [...endpoints]
    .sort((a, b) => rank[a.role] - rank[b.role])
    .map(spell)
    .join(" ");
}

/** Juju's Endpoint.CanRelateTo: other applications, same interface, provider meets requirer. */
function canRelate(a: Endpoint, b: Endpoint): boolean {
  return (
    a.application !== b.application &&
    a.interface === b.interface &&
    ((a.role === Role.Provider && b.role === Role.Requirer) || (a.role === Role.Requirer && b.role === Role.Provider))
  );
}

function parseEndpointSpec(spec: string): { application: string; relation: string | null } {
  const [application, relation, ...extra] = spec.split(":");
  if (extra.length || !application || relation === "" || (relation !== undefined && !isRelationName(relation)))
    throw new LifelineError("INVALID_ID", `invalid endpoint "${spec}": expected "<application>" or "<application>:<relation>"`);
  return { application: checkApplicationName(application), relation: relation ?? null };
}

async function endpointsOf(tx: Tx, model: ModelRow, app: ApplicationRow): Promise<Endpoint[]> {
  const [charm] = await tx.db
    .select()
    .from(charms)
    .where(and(eq(charms.modelId, model.id), eq(charms.url, app.charmUrl)));
  return charmMetadata(charm!).endpoints.map((e) => ({ ...e, application: app.name }));
}

async function insertRelation(tx: Tx, model: ModelRow, endpoints: Endpoint[], scope: Scope): Promise<RelationRow> {
  const key = relationKey(endpoints);
  const [existing] = await tx.db
    .select({ id: relations.id, life: relations.life })
    .from(relations)
    .where(and(eq(relations.modelId, model.id), eq(relations.key, key)));
  if (existing)
    throw new LifelineError(
      "ALREADY_EXISTS",
      `relation "${key}" already exists (id ${existing.id}${existing.life === "alive" ? "" : `, ${existing.life} until removed`})`,
      { key, life: existing.life },
    );
  const id = await nextSequence(tx, model.id, "relation");
  const [relation] = await tx.db
    .insert(relations)
    .values({ modelId: model.id, id, key, interface: endpoints[0]!.interface, scope })
    .returning();
  await tx.db.insert(relationEndpoints).values(
    endpoints.map((e) => ({
      modelId: model.id,
      relationId: id,
      application: e.application,
      name: e.name,
      role: e.role,
      interface: e.interface,
      scope,
    })),
  );
  await addRelationReferences(
    tx,
    model,
    endpoints.map((e) => e.application),
  );
  tx.record(model.id, relationAdded(relation!, endpoints.map(spell)));
  return relation!;
}

/** Juju deploys an application together with one relation per peer endpoint. */
export async function addPeerRelations(tx: Tx, model: ModelRow, app: ApplicationRow, meta: CharmMetadata): Promise<void> {
  for (const peer of meta.endpoints.filter((e) => e.role === Role.Peer))
    await insertRelation(tx, model, [{ ...peer, application: app.name }], peer.scope);
}

export interface IntegrateInput extends InModel {
  /** Two endpoints, each "<application>" or "<application>:<relation>". */
  endpoints: readonly string[];
}

/** Every endpoint pair of the two specs that could form a relation. */
function candidates(left: Endpoint[], right: Endpoint[]): [Endpoint, Endpoint][] {
  const pairs = left.flatMap((a) => right.filter((b) => canRelate(a, b)).map((b): [Endpoint, Endpoint] => [a, b]));
  // As in Juju, the implicit juju-info endpoints only count when nothing else matches.
  const explicit = pairs.filter(([a, b]) => !a.implicit && !b.implicit);
  return explicit.length ? explicit : pairs;
}

/** `juju integrate a b`: infers the endpoint pair when exactly one matches. */
export const integrate = modelOperation(Life.Alive, async (tx, model, args: IntegrateInput): Promise<RelationRow> => {
  if (args.endpoints.length !== 2)
    throw new LifelineError("INVALID_ARGUMENT", `integrate takes exactly two endpoints, got ${args.endpoints.length}`);
  const specs = args.endpoints.map(parseEndpointSpec);
  // Relations are only added to Alive applications (seed 001).
  const apps = await Promise.all(specs.map((s) => getAliveApplication(tx, model, s.application)));
  const sides = await Promise.all(
    specs.map(async (spec, i) => {
      const all = await endpointsOf(tx, model, apps[i]!);
      if (spec.relation === null) return all;
      const named = all.filter((e) => e.name === spec.relation);
      if (!named.length)
        throw new LifelineError(
          "NOT_FOUND",
          `application "${spec.application}" has no relation "${spec.relation}" (it has: ${all.map((e) => e.name).join(", ")})`,
          { kind: "endpoint", id: `${spec.application}:${spec.relation}` },
        );
      return named;
    }),
  );
  const pairs = candidates(sides[0]!, sides[1]!);
  const describe = (eps: Endpoint[]) => eps.map((e) => `${spell(e)} (${e.role} ${e.interface})`).join(", ");
  if (!pairs.length)
    throw new LifelineError(
      "NO_MATCHING_RELATION",
      `no relation can be formed between "${args.endpoints[0]}" and "${args.endpoints[1]}": ` +
        `a provider and a requirer of the same interface are needed; endpoints are ${describe(sides[0]!)} and ${describe(sides[1]!)}`,
    );
  if (pairs.length > 1) {
    const options = pairs.map(([a, b]) => `${spell(a)} ${spell(b)}`);
    throw new LifelineError(
      "AMBIGUOUS_RELATION",
      `ambiguous relation: "${args.endpoints[0]} ${args.endpoints[1]}" could be any of: ${options.map((o) => `"${o}"`).join(", ")}; name the endpoints, e.g. "${options[0]!.split(" ")[0]}"`,
      { candidates: options },
    );
  }
  const pair = pairs[0]!;
  // If either endpoint is container-scoped, the relation is (seed 003).
  const scope: Scope = pair.some((e) => e.scope === Scope.Container) ? Scope.Container : Scope.Global;
  if (scope === Scope.Container) {
    if (!apps.some((a) => a.subordinate))
      throw new LifelineError(
        "INVALID_RELATION",
        `cannot relate ${spell(pair[0])} and ${spell(pair[1])}: a container-scoped relation needs a subordinate application on one side`,
      );
    // "We therefore restrict subordinate relations such that they can only be created between services with matching series." (seed 004)
    if (apps[0]!.series !== apps[1]!.series)
      throw new LifelineError(
        "SERIES_MISMATCH",
        `cannot relate ${apps[0]!.name} (series ${apps[0]!.series}) and ${apps[1]!.name} (series ${apps[1]!.series}) in a container-scoped relation: their series must match`,
        { series: apps.map((a) => a.series) },
      );
  }
  return insertRelation(tx, model, pair, scope);
});

/**
 * The relation named by its canonical key or by Juju's `remove-relation`
 * endpoints ("wordpress mysql", "wordpress:db mysql"); NOT_FOUND or
 * AMBIGUOUS_RELATION otherwise.
 */
export async function findRelation(tx: Tx, model: ModelKey, spec: string): Promise<RelationRow> {
  const specs = spec.trim().split(/\s+/).map(parseEndpointSpec);
  if (specs.length < 1 || specs.length > 2)
    throw new LifelineError("INVALID_ID", `invalid relation "${spec}": give its id, its key, or one or two endpoints`);
  const endpoints = await tx.db
    .select()
    .from(relationEndpoints)
    .where(
      and(
        eq(relationEndpoints.modelId, model.id),
        inArray(
          relationEndpoints.application,
          specs.map((s) => s.application),
        ),
      ),
    );
  const byRelation = new Map<number, (typeof endpoints)[number][]>();
  for (const e of endpoints) byRelation.set(e.relationId, [...(byRelation.get(e.relationId) ?? []), e]);
  type Spec = (typeof specs)[number];
  const matches = (e: (typeof endpoints)[number], s: Spec) =>
    e.application === s.application && (s.relation === null || e.name === s.relation);
  // Two specs must match two different endpoints of the relation; one spec, any endpoint.
  const fits = (eps: typeof endpoints) =>
    specs.length === 1
      ? eps.some((e) => matches(e, specs[0]!))
      : eps.some((a) => eps.some((b) => a !== b && matches(a, specs[0]!) && matches(b, specs[1]!)));
  const ids = [...byRelation].filter(([, eps]) => fits(eps)).map(([id]) => id);
  const found = ids.length
    ? await tx.db
        .select()
        .from(relations)
        .where(and(eq(relations.modelId, model.id), inArray(relations.id, ids)))
        .orderBy(relations.id)
    : [];
  if (!found.length)
    throw new LifelineError("NOT_FOUND", `no relation matches "${spec}" in model "${model.name}"`, { kind: "relation", id: spec });
  if (found.length > 1) {
    const exact = found.find((r) => r.key === spec.trim());
    if (exact) return exact;
    throw new LifelineError(
      "AMBIGUOUS_RELATION",
      `"${spec}" matches several relations: ${found.map((r) => `"${r.key}"`).join(", ")}; name the endpoints`,
      {
        candidates: found.map((r) => r.key),
      },
    );
  }
  return found[0]!;
}

const relationWhere = (model: ModelRow, id: number) => and(eq(relations.modelId, model.id), eq(relations.id, id));

export async function endpointApplications(tx: Tx, model: ModelRow, relationId: number): Promise<string[]> {
  const rows = await tx.db
    .select({ application: relationEndpoints.application })
    .from(relationEndpoints)
    .where(and(eq(relationEndpoints.modelId, model.id), eq(relationEndpoints.relationId, relationId)));
  return rows.map((r) => r.application);
}

/**
 * Deletes a relation that has no units in scope, and drops its hold on its
 * applications, except `except` (an application being destroyed keeps its own
 * count, seed 000). Its settings are queued for deletion in batches.
 */
export async function removeRelation(tx: Tx, model: ModelRow, relation: RelationRow, except?: string): Promise<void> {
  const apps = await endpointApplications(tx, model, relation.id);
  await tx.db.delete(relationEndpoints).where(and(eq(relationEndpoints.modelId, model.id), eq(relationEndpoints.relationId, relation.id)));
  await tx.db.delete(relations).where(relationWhere(model, relation.id));
  tx.record(model.id, relationRemoved(relation));
  await queueCleanup(tx, model, CleanupKinds.relationSettings, String(relation.id));
  if (relation.scope === Scope.Container) await queueSubordinateCascade(tx, model, relation, apps);
  for (const app of new Set(apps)) if (app !== except) await releaseRelationReference(tx, model, app);
}

/** Seed 001: a subordinate becomes Dying when the last Alive relation between its application and its principal's goes. */
async function queueSubordinateCascade(tx: Tx, model: ModelRow, relation: RelationRow, apps: string[]): Promise<void> {
  if (apps.length === 2) await queueCleanup(tx, model, CleanupKinds.dyingSubordinates, String(relation.id), { applications: apps });
}

/**
 * Seed 000 "juju remove-relation": not Alive → no-op; units in scope → Dying
 * (their agents leave scope; the last one removes it); otherwise removed now.
 */
export async function destroyRelation(tx: Tx, model: ModelRow, relation: RelationRow, byApplication?: string): Promise<Outcome> {
  if (relation.life !== Life.Alive) return "unchanged";
  if (relation.unitCount > 0) {
    await tx.db
      .update(relations)
      .set({ life: advance(`relation ${relation.id}`, relation.life, Life.Dying) })
      .where(relationWhere(model, relation.id));
    tx.record(model.id, relationLifeSet(relation.id, Life.Dying));
    if (relation.scope === Scope.Container)
      await queueSubordinateCascade(tx, model, relation, await endpointApplications(tx, model, relation.id));
    return "dying";
  }
  await removeRelation(tx, model, relation, byApplication);
  return "removed";
}

/**
 * A peer relation goes only with its application: Juju's remove-relation
 * refuses it ("is a peer relation", state/relation.go), with force or without,
 * whatever its life. Application destruction calls destroyRelation and
 * forceRemoveRelation directly, so this refusal never stands in its way.
 */
async function refusePeerRelation(tx: Tx, model: ModelRow, relation: RelationRow): Promise<void> {
  const endpoints = await tx.db
    .select({ application: relationEndpoints.application, role: relationEndpoints.role })
    .from(relationEndpoints)
    .where(and(eq(relationEndpoints.modelId, model.id), eq(relationEndpoints.relationId, relation.id)));
  const [only, ...others] = endpoints;
  if (!only || others.length || only.role !== Role.Peer) return;
  throw new LifelineError(
    "PEER_RELATION",
    `relation ${relation.id} "${relation.key}" is a peer relation of application "${only.application}": it is removed only with its application; remove application "${only.application}" instead`,
    { id: relation.id, key: relation.key, application: only.application },
  );
}

/** `juju remove-relation`, with or without force: any relation but a peer relation. */
export async function destroyRelationByUser(
  tx: Tx,
  model: ModelRow,
  relation: RelationRow,
  options: { force?: boolean },
): Promise<Outcome> {
  await refusePeerRelation(tx, model, relation);
  return options.force ? forceRemoveRelation(tx, model, relation) : destroyRelation(tx, model, relation);
}

/**
 * `remove-relation --force`: removes the relation now, whatever its scope
 * count says. Its members are taken out of scope (their settings stay until
 * the settings cleanup), so no reference to it survives. A relation with more
 * members than a cleanup batch goes Dying instead, and the cleaner takes them
 * out in batches: no transaction grows with the model.
 */
export async function forceRemoveRelation(tx: Tx, model: ModelRow, relation: RelationRow, except?: string): Promise<Outcome> {
  if (relation.unitCount > CLEANUP_BATCH) {
    // 100,000 members cannot leave in one transaction: the relation goes Dying now, the cleaner takes its members out
    // a batch at a time, and the last to leave removes it (seed 001), releasing every application's hold then.
    await destroyRelation(tx, model, relation, except);
    await queueCleanup(tx, model, CleanupKinds.forceRelation, String(relation.id));
    return "dying";
  }
  const members = await tx.db
    .delete(relationScopes)
    .where(and(eq(relationScopes.modelId, model.id), eq(relationScopes.relationId, relation.id)))
    .returning();
  for (const member of members) tx.record(model.id, scopeLeft(member));
  await removeRelation(tx, model, relation, except);
  return "removed";
}

/** The relations an application takes part in, oldest first. */
export async function relationsOf(tx: Tx, model: ModelRow, application: string): Promise<RelationRow[]> {
  const ids = await tx.db
    .select({ id: relationEndpoints.relationId })
    .from(relationEndpoints)
    .where(and(eq(relationEndpoints.modelId, model.id), eq(relationEndpoints.application, application)));
  if (!ids.length) return [];
  return tx.db
    .select()
    .from(relations)
    .where(
      and(
        eq(relations.modelId, model.id),
        inArray(
          relations.id,
          ids.map((r) => r.id),
        ),
      ),
    )
    .orderBy(relations.id);
}

/** Is an Alive container-scoped relation still joining these two applications? */
export async function aliveContainerRelationBetween(tx: Tx, model: ModelRow, a: string, b: string): Promise<boolean> {
  const rows = await tx.db.execute<{ id: number }>(sql`
    select r.id from relations r
    join relation_endpoints ea on ea.model_id = r.model_id and ea.relation_id = r.id and ea.application = ${a}
    join relation_endpoints eb on eb.model_id = r.model_id and eb.relation_id = r.id and eb.application = ${b}
    where r.model_id = ${model.id} and r.scope = ${Scope.Container} and r.life = ${Life.Alive} limit 1`);
  return rowsOf(rows).length > 0;
}

/** "Why is it still here?" for a relation: the units in its scope (the last to leave removes it), and its pending cleanups. */
export async function relationBlockers(q: Queryable, relation: RelationRow): Promise<Blocker[]> {
  if (relation.life === Life.Alive) return [];
  const members = await q
    .select({ unit: relationScopes.unit })
    .from(relationScopes)
    .where(and(eq(relationScopes.modelId, relation.modelId), eq(relationScopes.relationId, relation.id)))
    .orderBy(asc(relationScopes.unit))
    .limit(SHOWN);
  const blockers: Blocker[] = [];
  if (members.length)
    blockers.push({
      kind: "units-in-scope",
      message: `units ${listed(
        members.map((m) => m.unit),
        relation.unitCount,
      )} are in its scope; it is removed when the last one leaves`,
      entities: members.map((m) => m.unit),
    });
  else if (relation.unitCount > 0)
    blockers.push({
      kind: "units-in-scope",
      message: `its scope count says ${relation.unitCount} unit(s) but none is in scope: remove it with force`,
      entities: [],
    });
  blockers.push(...(await pendingCleanups(q, relation.modelId, "relation", String(relation.id))));
  return blockers;
}
