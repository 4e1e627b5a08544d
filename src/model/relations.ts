// Relations: `juju integrate`, with Juju's endpoint inference, and the peer
// relations `juju deploy` creates for every peer endpoint of a charm.
import { and, eq, inArray, sql } from "drizzle-orm";
import { applications, relationEndpoints, relations } from "../db/schema.js";
import { getAliveApplication, type ApplicationRow } from "./applications.js";
import type { CharmEndpoint, CharmMetadata, Scope } from "./charm.js";
import { charmMetadata } from "./charms.js";
import { charms } from "../db/schema.js";
import { LifelineError } from "./errors.js";
import { getAliveModel, type ModelRow } from "./models.js";
import { checkApplicationName, isRelationName } from "./names.js";
import { nextSequence } from "./sequences.js";
import type { Tx } from "./tx.js";

export type RelationRow = typeof relations.$inferSelect;

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
  const rank = { requirer: 0, provider: 1, peer: 2 } as const;
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
    ((a.role === "provider" && b.role === "requirer") || (a.role === "requirer" && b.role === "provider"))
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
  await tx.db
    .update(applications)
    .set({ relationCount: sql`${applications.relationCount} + 1` })
    .where(
      and(
        eq(applications.modelId, model.id),
        inArray(
          applications.name,
          endpoints.map((e) => e.application),
        ),
      ),
    );
  tx.record({
    modelId: model.id,
    kind: "relation",
    entity: String(id),
    life: "alive",
    fields: { key, scope, interface: relation!.interface, endpoints: endpoints.map(spell) },
  });
  return relation!;
}

/** Juju deploys an application together with one relation per peer endpoint. */
export async function addPeerRelations(tx: Tx, model: ModelRow, app: ApplicationRow, meta: CharmMetadata): Promise<void> {
  for (const peer of meta.endpoints.filter((e) => e.role === "peer"))
    await insertRelation(tx, model, [{ ...peer, application: app.name }], peer.scope);
}

export interface IntegrateArgs {
  model: string;
  endpoints: readonly [string, string];
}

/** Every endpoint pair of the two specs that could form a relation. */
function candidates(left: Endpoint[], right: Endpoint[]): [Endpoint, Endpoint][] {
  const pairs = left.flatMap((a) => right.filter((b) => canRelate(a, b)).map((b): [Endpoint, Endpoint] => [a, b]));
  // As in Juju, the implicit juju-info endpoints only count when nothing else matches.
  const explicit = pairs.filter(([a, b]) => !a.implicit && !b.implicit);
  return explicit.length ? explicit : pairs;
}

/** `juju integrate a b`: infers the endpoint pair when exactly one matches. */
export async function integrate(tx: Tx, args: IntegrateArgs): Promise<RelationRow> {
  const model = await getAliveModel(tx, args.model);
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
  const scope: Scope = pair.some((e) => e.scope === "container") ? "container" : "global";
  if (scope === "container") {
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
}

/**
 * The relation named by its canonical key or by Juju's `remove-relation`
 * endpoints ("wordpress mysql", "wordpress:db mysql"); NOT_FOUND or
 * AMBIGUOUS_RELATION otherwise.
 */
export async function findRelation(tx: Tx, model: ModelRow, spec: string): Promise<RelationRow> {
  const specs = spec.trim().split(/\s+/).map(parseEndpointSpec);
  if (specs.length < 1 || specs.length > 2)
    throw new LifelineError("INVALID_ID", `invalid relation "${spec}": give its id, its key, or one or two endpoints`);
  const endpoints = await tx.db
    .select()
    .from(relationEndpoints)
    .where(and(eq(relationEndpoints.modelId, model.id), inArray(relationEndpoints.application, specs.map((s) => s.application))));
  const byRelation = new Map<number, (typeof endpoints)[number][]>();
  for (const e of endpoints) byRelation.set(e.relationId, [...(byRelation.get(e.relationId) ?? []), e]);
  type Spec = (typeof specs)[number];
  const matches = (e: (typeof endpoints)[number], s: Spec) => e.application === s.application && (s.relation === null || e.name === s.relation);
  // Two specs must match two different endpoints of the relation; one spec, any endpoint.
  const fits = (eps: typeof endpoints) =>
    specs.length === 1
      ? eps.some((e) => matches(e, specs[0]!))
      : eps.some((a) => eps.some((b) => a !== b && matches(a, specs[0]!) && matches(b, specs[1]!)));
  const ids = [...byRelation].filter(([, eps]) => fits(eps)).map(([id]) => id);
  const found = ids.length
    ? await tx.db.select().from(relations).where(and(eq(relations.modelId, model.id), inArray(relations.id, ids))).orderBy(relations.id)
    : [];
  if (!found.length) throw new LifelineError("NOT_FOUND", `no relation matches "${spec}" in model "${model.name}"`, { kind: "relation", id: spec });
  if (found.length > 1) {
    const exact = found.find((r) => r.key === spec.trim());
    if (exact) return exact;
    throw new LifelineError("AMBIGUOUS_RELATION", `"${spec}" matches several relations: ${found.map((r) => `"${r.key}"`).join(", ")}; name the endpoints`, {
      candidates: found.map((r) => r.key),
    });
  }
  return found[0]!;
}
