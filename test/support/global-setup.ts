// Once a run, before any test file. With DATABASE_URL set the suite runs against that PostgreSQL server: its
// migrations are applied here, before test files connect in parallel. On PGlite a migrated data directory is dumped
// here for every test store to start from (pglite-template.ts).
import type { TestProject } from "vitest/node";
import { openStore } from "../../src/db/connect.js";
import { writePgliteTemplate } from "./pglite-template.js";

export default async function setup(project: TestProject) {
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
