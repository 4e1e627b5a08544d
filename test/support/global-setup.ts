// Once a run, before any test file. With DATABASE_URL set the suite runs against that PostgreSQL server: its
// migrations are applied here, before test files connect in parallel. On PGlite a migrated data directory is dumped
// here for every test store to start from (pglite-template.ts).
import type { TestProject } from "vitest/node";
import { openStore } from "../../src/db/connect.js";
import { writePgliteTemplate } from "./pglite-template.js";
import { TIME_SCALE } from "./time-scale.js";

export default async function setup(project: TestProject) {
  if (TIME_SCALE !== 1) console.log(`lifeline tests: deadlines scaled by ${TIME_SCALE} (LIFELINE_TEST_TIME_SCALE, else the load)`);
  const url = process.env.DATABASE_URL;
  if (url) {
    const store = await openStore({ databaseUrl: url, maxConnections: 1 });
    await store.close();
    return;
  }
  const template = await writePgliteTemplate();
  project.provide("pgliteTemplate", template.path);
  return () => template.remove();
}
