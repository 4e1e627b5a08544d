// Charms in a model: added from their files (metadata.yaml, config.yaml, hooks;
// `local:` urls) or taken from the charms bundled with Lifeline on first
// deploy, the way Juju fetches from a store.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { and, desc, eq } from "drizzle-orm";
import { charmAdded } from "../changes/change.js";
import { LifelineError, notFound } from "../core/errors.js";
import { Life } from "../core/life.js";
import { charms } from "../db/schema.js";
import { parseCharmConfig } from "./charm-config.js";
import { type CharmHook, checkCharmHooks } from "./charm-hooks.js";
import { type CharmMetadata, parseCharmMetadata } from "./charm-metadata.js";
import type { CharmRow, ModelRow } from "./rows.js";
import { nextSequence } from "./sequences.js";
import { type InModel, modelOperation, type Tx } from "./write/index.js";

const bundledDir = new URL("../../charms/", import.meta.url);

/** A charm's files as added: metadata.yaml, and config.yaml and hooks when it has them. */
export interface CharmFiles {
  metadata: string;
  config?: string | null;
  hooks?: readonly CharmHook[] | null;
}

const readIfPresent = (url: URL) => (existsSync(url) ? readFileSync(url, "utf8") : null);

/** A bundled charm's directory, as laid out for Juju: metadata.yaml, and config.yaml and hooks/<hook> when present. */
function readCharmDirectory(dir: URL): CharmFiles {
  const hooksDir = new URL("hooks/", dir);
  const hooks = existsSync(hooksDir)
    ? readdirSync(hooksDir, { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => ({ name: entry.name, content: readFileSync(new URL(entry.name, hooksDir), "utf8") }))
    : [];
  return { metadata: readFileSync(new URL("metadata.yaml", dir), "utf8"), config: readIfPresent(new URL("config.yaml", dir)), hooks };
}

/** The example charms shipped with Lifeline, by name: a directory each, laid out as a Juju charm. */
export const bundledCharms: ReadonlyMap<string, CharmFiles> = new Map(
  readdirSync(bundledDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => [entry.name, readCharmDirectory(new URL(`${entry.name}/`, bundledDir))]),
);

export const charmMetadata = (charm: CharmRow) => charm.metadata as CharmMetadata;

/** Checks every file (nothing is written before all pass), then stores the charm as the next revision of its name. */
async function storeCharm(tx: Tx, model: ModelRow, source: "local" | "bundled", files: CharmFiles): Promise<CharmRow> {
  const meta = parseCharmMetadata(files.metadata);
  const config = files.config == null ? {} : parseCharmConfig(files.config);
  const hooks = checkCharmHooks(files.hooks ?? [], meta);
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
      metadataYaml: files.metadata,
      hooks,
      config,
      configYaml: files.config ?? null,
    })
    .returning();
  tx.record(model.id, charmAdded(charm!));
  return charm!;
}

export interface AddCharmInput extends InModel, CharmFiles {}

/** `juju add-charm`-like: stores the charm (metadata, config and hooks) as the next revision of its name. */
export const addCharm = modelOperation(Life.Alive, (tx, model, input: AddCharmInput) => storeCharm(tx, model, "local", input));

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
