// An application from `juju deploy` to removal (seed 000 "juju
// remove-application", seed 001 "Applications"). What holds it and when the
// last holder removes it is in references.ts; its units in unit.ts.
import { and, asc, eq, sql } from "drizzle-orm";
import { applicationAdded, applicationConfigSet, applicationConstraintsSet, applicationLifeSet } from "../changes/change.js";
import { type ConfigSettings, effectiveConfig } from "../core/config.js";
import { LifelineError, notAlive } from "../core/errors.js";
import { advance, Life } from "../core/life.js";
import type { Database } from "../db/connect.js";
import { applications, charms, relationEndpoints, relations, units } from "../db/schema.js";
import { statement } from "../db/statement.js";
import { type Blocker, listed, SHOWN } from "./blocker.js";
import { charmMetadata, resolveCharm } from "./charm.js";
import { applyConfigChanges } from "./charm-config.js";
import { CleanupKinds, pendingCleanups, queueCleanup } from "./cleanup-queue.js";
import { type Constraints, hasConstraints, parseConstraints } from "./constraints.js";
import { getApplication } from "./lookup.js";
import type { DestroyOptions, Outcome } from "./machine.js";
import { checkApplicationName, checkSeries } from "./names.js";
import { removeApplicationRow } from "./references.js";
import { addPeerRelations, destroyRelation, forceRemoveRelation, relationsOf } from "./relation.js";
import type { ApplicationRow, CharmRow, ModelRow, Queryable } from "./rows.js";
import { addUnits, checkedPlacements, checkUnitsPerCall } from "./unit.js";
import { type InModel, modelOperation, type Tx } from "./write/index.js";

export interface DeployInput extends InModel {
  charm: string;
  /** Defaults to the charm's name. */
  application?: string | null;
  /** Defaults to 1 for principals and 0 for subordinates. */
  numUnits?: number | null;
  series?: string | null;
  constraints?: string | null;
  placement?: readonly string[] | null;
  /** `juju deploy --config`: option values as `juju config` takes them. */
  config?: readonly ConfigInput[] | null;
}

/** One option's value, in `juju config`'s string form (coerced to the option's type). */
export interface ConfigInput {
  key: string;
  value: string;
}

/** `juju deploy`: the application, one relation per peer endpoint (as Juju does), and its units. */
export const deploy = (db: Database, input: DeployInput): Promise<ApplicationRow> => {
  checkUnitsPerCall(db, input.numUnits);
  return deployInTurn(db, input);
};

const deployInTurn = modelOperation(
  Life.Alive,
  async (tx, model, input: DeployInput): Promise<ApplicationRow> => {
    const charm = await resolveCharm(tx, model, input.charm);
    const meta = charmMetadata(charm);
    const name = checkApplicationName(input.application ?? meta.name);
    const constraints = parseConstraints(input.constraints ?? "");
    const numUnits = input.numUnits ?? (meta.subordinate ? 0 : 1);
    checkedPlacements(numUnits, input.placement);
    const config = applyConfigChanges(name, charm.config, {}, input.config ?? []);

    // "Every service, unit, and machine has a series that's set at creation time and subsequently immutable." (seed 004)
    const series = checkSeries(input.series ?? meta.series[0] ?? model.defaultSeries);
    if (meta.series.length && !meta.series.includes(series))
      throw new LifelineError(
        "UNSUPPORTED_SERIES",
        `charm "${charm.url}" does not support series "${series}" (supported: ${meta.series.join(", ")})`,
        { series, supported: meta.series },
      );

    if (meta.subordinate) {
      // Seed 003: subordinates get units only through their principals; seed 004: they take no constraints.
      if (input.numUnits)
        throw new LifelineError("SUBORDINATE_NOT_ALLOWED", `subordinate application "${name}" must be deployed without units`);
      if (hasConstraints(constraints))
        throw new LifelineError("SUBORDINATE_NOT_ALLOWED", `subordinate application "${name}" cannot have constraints`);
      if (input.placement?.length) throw new LifelineError("SUBORDINATE_NOT_ALLOWED", `subordinate application "${name}" cannot be placed`);
    }

    // Names are unique in a model, also while an application of that name is Dying (seed 001).
    const [existing] = await tx.db
      .select({ life: applications.life })
      .from(applications)
      .where(and(eq(applications.modelId, model.id), eq(applications.name, name)));
    if (existing)
      throw new LifelineError(
        "ALREADY_EXISTS",
        existing.life === Life.Alive
          ? `application "${name}" already exists in model "${model.name}"`
          : `application "${name}" already exists in model "${model.name}" and is ${existing.life}: the name is free once it is removed`,
        { life: existing.life },
      );

    const [application] = await tx.db
      .insert(applications)
      .values({ modelId: model.id, name, charmUrl: charm.url, series, subordinate: meta.subordinate, constraints, config })
      .returning();
    tx.record(model.id, applicationAdded(application!, effectiveConfig(charm.config, config)));
    await addPeerRelations(tx, model, application!, meta);
    if (numUnits > 0) await addUnits(tx, model, application!, numUnits, input.placement);
    return getApplication(tx, model, name);
  },
  undefined,
  (input) => 1 + (input.numUnits ?? 1), // its weight in a group: the application and its units
);

/** Sets the application's constraints; units already created keep theirs (seed 004). */
const setConstraintsOfApplication = statement(["modelId", "name", "constraints"], (db, p) =>
  db
    .update(applications)
    // A placeholder where a value goes: Drizzle encodes the value bound to it as the column's (jsonb).
    .set({ constraints: p.constraints as unknown as Constraints })
    .where(and(eq(applications.modelId, p.modelId), eq(applications.name, p.name))),
);

export async function setApplicationConstraints(tx: Tx, model: ModelRow, app: ApplicationRow, text: string): Promise<Constraints> {
  const { name } = app;
  if (app.life !== Life.Alive) throw notAlive("application", name, app.life);
  if (app.subordinate)
    throw new LifelineError(
      "SUBORDINATE_NOT_ALLOWED",
      `subordinate application "${name}" cannot have constraints: its units follow their principals`,
    );
  const constraints = parseConstraints(text);
  tx.defer(setConstraintsOfApplication(tx.db, { modelId: model.id, name, constraints }));
  tx.record(model.id, applicationConstraintsSet(app, constraints));
  return constraints;
}

async function charmOf(tx: Tx, model: ModelRow, app: ApplicationRow): Promise<CharmRow> {
  const [charm] = await tx.db
    .select()
    .from(charms)
    .where(and(eq(charms.modelId, model.id), eq(charms.url, app.charmUrl)));
  return charm!;
}

/** What `config-get` shows the application's units: its settings over its charm's defaults. */
export const applicationConfig = (app: ApplicationRow, charm: CharmRow): ConfigSettings => effectiveConfig(charm.config, app.config);

export interface SetApplicationConfigInput extends InModel {
  application: string;
  /** Options to set, in `juju config`'s string form. */
  values?: readonly ConfigInput[] | null;
  /** Options to return to their defaults. */
  reset?: readonly string[] | null;
}

/**
 * `juju config <application> key=value … [--reset key,…]`: checked against
 * its charm's options (an unknown key, or a value not of its option's type, is
 * INVALID_ARGUMENT), values coerced to their types. A change to the effective
 * config bumps the application's config version, which its units' agents see
 * on their streams and answer with config-changed; a change that leaves it as
 * it was writes nothing. Any life: fixing the config of a Dying application
 * (a hook failing on purpose, say) is how its units get moving again.
 */
export const setApplicationConfig = modelOperation("any", async (tx, model, input: SetApplicationConfigInput): Promise<ApplicationRow> => {
  const app = await getApplication(tx, model, input.application);
  const charm = await charmOf(tx, model, app);
  const settings = applyConfigChanges(app.name, charm.config, app.config, input.values ?? [], input.reset ?? []);
  const before = applicationConfig(app, charm);
  const after = effectiveConfig(charm.config, settings);
  if (JSON.stringify(after) === JSON.stringify(before)) return app;
  const [updated] = await tx.db
    .update(applications)
    .set({ config: settings, configVersion: sql`${applications.configVersion} + 1` })
    .where(and(eq(applications.modelId, model.id), eq(applications.name, app.name)))
    .returning();
  tx.record(model.id, applicationConfigSet(updated!, after));
  return updated!;
});

/**
 * Seed 000, as one transaction: not Alive → no-op; each Alive relation is
 * destroyed without touching this application's count; if units remain or a
 * relation survives, the application becomes Dying (its units follow through
 * the cleanup queue, in batches); otherwise it is removed now. With force,
 * its relations are removed now whatever their scopes hold, and its units'
 * forced removal is queued.
 */
export async function destroyApplication(tx: Tx, model: ModelRow, target: ApplicationRow, options: DestroyOptions = {}): Promise<Outcome> {
  // Read afresh: earlier work in this transaction (another application's destruction) may have changed its counts.
  const app = await getApplication(tx, model, target.name);
  const unitsArgs = { force: !!options.force, forceAt: options.forceAt?.toISOString() };
  if (app.life !== Life.Alive) {
    if (options.force) {
      // Its relations drop their hold as they go; the last one may remove the application.
      for (const relation of await relationsOf(tx, model, app.name)) await forceRemoveRelation(tx, model, relation);
      if (app.unitCount > 0) await queueCleanup(tx, model, CleanupKinds.dyingUnits, app.name, unitsArgs);
    }
    return "unchanged";
  }
  let removedRelations = 0;
  for (const relation of await relationsOf(tx, model, app.name)) {
    // With force every relation goes now, members and all; without, Dying ones are left to their units.
    const outcome = options.force
      ? await forceRemoveRelation(tx, model, relation, app.name)
      : await destroyRelation(tx, model, relation, app.name);
    if (outcome === "removed") removedRelations++;
  }
  if (app.unitCount > 0 || removedRelations < app.relationCount) {
    await tx.db
      .update(applications)
      .set({
        life: advance(`application ${app.name}`, app.life, Life.Dying),
        relationCount: sql`${applications.relationCount} - ${removedRelations}`,
      })
      .where(and(eq(applications.modelId, model.id), eq(applications.name, app.name)));
    tx.record(model.id, applicationLifeSet(app.name, Life.Dying));
    // 100,000 units cannot be updated in one transaction (seed 001): fan out in batches.
    if (app.unitCount > 0) await queueCleanup(tx, model, CleanupKinds.dyingUnits, app.name, unitsArgs);
    return "dying";
  }
  await removeApplicationRow(tx, model, app);
  return "removed";
}

/** "Why is it still here?" for an application: the units and relations that still hold it (references.ts), and its pending cleanups. */
export async function applicationBlockers(q: Queryable, app: ApplicationRow): Promise<Blocker[]> {
  if (app.life === Life.Alive) return [];
  const blockers: Blocker[] = [];
  const remaining = await q
    .select({ name: units.name })
    .from(units)
    .where(and(eq(units.modelId, app.modelId), eq(units.application, app.name)))
    .orderBy(asc(units.seq))
    .limit(SHOWN);
  if (remaining.length)
    blockers.push({
      kind: "units",
      message: `${app.unitCount} unit(s) remain: ${listed(
        remaining.map((u) => u.name),
        app.unitCount,
      )}; each goes when its agent sets it Dead and its deployer removes it`,
      entities: remaining.map((u) => u.name),
    });
  const held = await q
    .select({ id: relations.id, key: relations.key, unitCount: relations.unitCount })
    .from(relationEndpoints)
    .innerJoin(relations, and(eq(relations.modelId, relationEndpoints.modelId), eq(relations.id, relationEndpoints.relationId)))
    .where(and(eq(relationEndpoints.modelId, app.modelId), eq(relationEndpoints.application, app.name)))
    .orderBy(asc(relations.id))
    .limit(SHOWN);
  if (held.length)
    blockers.push({
      kind: "relations",
      message: `relations ${listed(
        held.map((r) => `${r.id} "${r.key}" (${r.unitCount} unit(s) in scope)`),
        app.relationCount,
      )} remain; each goes when its last unit leaves scope`,
      entities: held.map((r) => String(r.id)),
    });
  blockers.push(...(await pendingCleanups(q, app.modelId, "application", app.name)));
  return blockers;
}
