// Applications: `juju deploy`, `juju add-unit`, `juju set-constraints`.
import { and, eq } from "drizzle-orm";
import { applications } from "../db/schema.js";
import { charmMetadata, resolveCharm } from "./charms.js";
import { hasConstraints, parseConstraints, type Constraints } from "./constraints.js";
import { LifelineError, notAlive, notFound } from "./errors.js";
import { getAliveModel, type ModelRow } from "./models.js";
import { checkApplicationName, checkSeries } from "./names.js";
import { addPeerRelations } from "./relations.js";
import type { Tx } from "./tx.js";
import { addUnits, checkedPlacements, type UnitRow } from "./units.js";

export type ApplicationRow = typeof applications.$inferSelect;

export async function getApplication(tx: Tx, model: ModelRow, name: string): Promise<ApplicationRow> {
  checkApplicationName(name);
  const [app] = await tx.db
    .select()
    .from(applications)
    .where(and(eq(applications.modelId, model.id), eq(applications.name, name)));
  if (!app) throw notFound("application", name, model.name);
  return app;
}

export async function getAliveApplication(tx: Tx, model: ModelRow, name: string): Promise<ApplicationRow> {
  const app = await getApplication(tx, model, name);
  if (app.life !== "alive") throw notAlive("application", name, app.life);
  return app;
}

export interface DeployArgs {
  model: string;
  charm: string;
  /** Defaults to the charm's name. */
  application?: string | null;
  /** Defaults to 1 for principals and 0 for subordinates. */
  numUnits?: number | null;
  series?: string | null;
  constraints?: string | null;
  placement?: readonly string[] | null;
}

export interface Deployed {
  application: ApplicationRow;
  units: UnitRow[];
}

export async function deploy(tx: Tx, args: DeployArgs): Promise<Deployed> {
  const model = await getAliveModel(tx, args.model);
  const charm = await resolveCharm(tx, model, args.charm);
  const meta = charmMetadata(charm);
  const name = checkApplicationName(args.application ?? meta.name);
  const constraints = parseConstraints(args.constraints ?? "");
  const numUnits = args.numUnits ?? (meta.subordinate ? 0 : 1);
  checkedPlacements(numUnits, args.placement);

  // "Every service, unit, and machine has a series that's set at creation time and subsequently immutable." (seed 004)
  const series = checkSeries(args.series ?? meta.series[0] ?? model.defaultSeries);
  if (meta.series.length && !meta.series.includes(series))
    throw new LifelineError(
      "UNSUPPORTED_SERIES",
      `charm "${charm.url}" does not support series "${series}" (supported: ${meta.series.join(", ")})`,
      { series, supported: meta.series },
    );

  if (meta.subordinate) {
    // Seed 003: subordinates get units only through their principals; seed 004: they take no constraints.
    if (args.numUnits) throw new LifelineError("SUBORDINATE_NOT_ALLOWED", `subordinate application "${name}" must be deployed without units`);
    if (hasConstraints(constraints))
      throw new LifelineError("SUBORDINATE_NOT_ALLOWED", `subordinate application "${name}" cannot have constraints`);
    if (args.placement?.length) throw new LifelineError("SUBORDINATE_NOT_ALLOWED", `subordinate application "${name}" cannot be placed`);
  }

  // Names are unique in a model, also while an application of that name is Dying (seed 001).
  const [existing] = await tx.db
    .select({ life: applications.life })
    .from(applications)
    .where(and(eq(applications.modelId, model.id), eq(applications.name, name)));
  if (existing)
    throw new LifelineError(
      "ALREADY_EXISTS",
      existing.life === "alive"
        ? `application "${name}" already exists in model "${model.name}"`
        : `application "${name}" already exists in model "${model.name}" and is ${existing.life}: the name is free once it is removed`,
      { life: existing.life },
    );

  const [application] = await tx.db
    .insert(applications)
    .values({ modelId: model.id, name, charmUrl: charm.url, series, subordinate: meta.subordinate, constraints })
    .returning();
  tx.record({
    modelId: model.id,
    kind: "application",
    entity: name,
    life: "alive",
    fields: { charmUrl: charm.url, series, subordinate: meta.subordinate, constraints },
  });
  await addPeerRelations(tx, model, application!, meta);
  const created = numUnits > 0 ? await addUnits(tx, model, application!, numUnits, args.placement) : [];
  return { application: (await getApplication(tx, model, name)), units: created };
}

export interface AddUnitArgs {
  model: string;
  application: string;
  count?: number | null;
  placement?: readonly string[] | null;
}

export async function addUnit(tx: Tx, args: AddUnitArgs): Promise<UnitRow[]> {
  const model = await getAliveModel(tx, args.model);
  const app = await getApplication(tx, model, args.application);
  const count = args.count ?? 1;
  if (count < 1) throw new LifelineError("INVALID_ARGUMENT", `add at least one unit (count was ${count})`);
  return addUnits(tx, model, app, count, args.placement);
}

/** Sets the application's constraints; units already created keep theirs (seed 004). */
export async function setApplicationConstraints(tx: Tx, model: ModelRow, name: string, text: string): Promise<Constraints> {
  const app = await getAliveApplication(tx, model, name);
  if (app.subordinate)
    throw new LifelineError("SUBORDINATE_NOT_ALLOWED", `subordinate application "${name}" cannot have constraints: its units follow their principals`);
  const constraints = parseConstraints(text);
  await tx.db
    .update(applications)
    .set({ constraints })
    .where(and(eq(applications.modelId, model.id), eq(applications.name, name)));
  tx.record({ modelId: model.id, kind: "application", entity: name, life: app.life, fields: { constraints } });
  return constraints;
}
