// Every throw-away PGlite store of a run starts as a copy of one migrated data directory, dumped once by the global
// setup: a fresh PGlite runs initdb (a WebAssembly program of its own), then every migration, about 3 s at a load
// average of 6 on two cores; restoring the dump takes a third of that. openStore still runs the migrations over the
// copy, and finds none left to apply.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { inject } from "vitest";
import { openStore } from "../../src/db/connect.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The file holding the migrated data directory's dump (a tar); none on PostgreSQL. */
    pgliteTemplate?: string;
  }
}

/** Opens a throw-away store as the tests do (so migrated by openStore itself) and dumps its data directory into a temporary file; `remove` deletes it. */
export async function writePgliteTemplate(): Promise<{ path: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "lifeline-tests-"));
  const path = join(dir, "migrated-pgdata.tar");
  const store = await openStore({ dataDir: "memory://" });
  try {
    const client = (store.db as unknown as { $client: PGlite }).$client;
    // Uncompressed: 40 MB in the temporary directory for the run, against 0.1 to 0.3 s more a store to unpack 5.
    const dump = await client.dumpDataDir("none");
    await writeFile(path, new Uint8Array(await dump.arrayBuffer()));
  } finally {
    await store.close();
  }
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}

let template: Promise<Blob | undefined> | undefined;

/** Options for a throw-away PGlite store, started from the run's migrated template when there is one. */
export async function memoryStore(): Promise<{ dataDir: string; loadDataDir?: Blob }> {
  template ??= readTemplate();
  const loadDataDir = await template;
  return loadDataDir ? { dataDir: "memory://", loadDataDir } : { dataDir: "memory://" };
}

async function readTemplate(): Promise<Blob | undefined> {
  const path = inject("pgliteTemplate");
  return path ? new Blob([await readFile(path)]) : undefined;
}
