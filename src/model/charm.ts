// Charms in a model: added from metadata YAML (`local:` urls) or taken from the
// charms bundled with Lifeline on first deploy, the way Juju fetches from a store.
import { readdirSync, readFileSync } from "node:fs";
import { and, desc, eq } from "drizzle-orm";
import { charmAdded } from "../changes/change.js";
import { LifelineError, notFound } from "../core/errors.js";
import { Life } from "../core/life.js";
import { charms } from "../db/schema.js";
import { type CharmMetadata, parseCharmMetadata } from "./charm-metadata.js";
import type { CharmRow, ModelRow } from "./rows.js";
import { nextSequence } from "./sequences.js";
import { type InModel, modelOperation, type Tx } from "./transaction.js";

const bundledDir = new URL("../charms/", import.meta.url);

/** The example charms shipped with Lifeline, by name, as metadata.yaml text: a directory each, laid out as a Juju charm. */
export const bundledCharms: ReadonlyMap<string, string> = new Map(
  readdirSync(bundledDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => [entry.name, readFileSync(new URL(`${entry.name}/metadata.yaml`, bundledDir), "utf8")]),
);

export const charmMetadata = (charm: CharmRow) => charm.metadata as CharmMetadata;

async function storeCharm(tx: Tx, model: ModelRow, source: "local" | "bundled", yaml: string): Promise<CharmRow> {
  const meta = parseCharmMetadata(yaml);
  const revision = await nextSequence(tx, model.id, `charm:${meta.name}`);
  const url = `${source}:${meta.name}-${revision}`;
  const [charm] = await tx.db
    .insert(charms)
    .values({
      modelId: model.id,
      url,
      name: meta.name,
      revision,
      subordinate: meta.subordinate,
      series: meta.series,
      metadata: meta,
      metadataYaml: yaml,
    })
    .returning();
  tx.record(model.id, charmAdded(charm!));
  return charm!;
}

export interface AddCharmInput extends InModel {
  /** The charm's metadata.yaml. */
  metadata: string;
}

/** `juju add-charm`-like: stores the metadata as the next revision of its charm name. */
export const addCharm = modelOperation(Life.Alive, (tx, model, input: AddCharmInput) => storeCharm(tx, model, "local", input.metadata));

/**
 * A charm by url ("local:wordpress-2") or by name (the model's latest revision,
 * else the bundled charm of that name, added to the model now).
 */
export async function resolveCharm(tx: Tx, model: ModelRow, ref: string): Promise<CharmRow> {
  const byUrl = ref.includes(":");
  const [found] = await tx.db
    .select()
    .from(charms)
    .where(and(eq(charms.modelId, model.id), byUrl ? eq(charms.url, ref) : eq(charms.name, ref)))
    .orderBy(desc(charms.revision))
    .limit(1);
  if (found) return found;
  const bundled = byUrl ? undefined : bundledCharms.get(ref);
  if (bundled) return storeCharm(tx, model, "bundled", bundled);
  if (byUrl) throw notFound("charm", ref, model.name);
  throw new LifelineError(
    "NOT_FOUND",
    `charm "${ref}" not found in model "${model.name}": add it with addCharm, or use a bundled charm (${[...bundledCharms.keys()].sort().join(", ")})`,
    { kind: "charm", id: ref },
  );
}
