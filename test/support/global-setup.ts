// With DATABASE_URL set the suite runs against that PostgreSQL server. Its
// migrations are applied once here, before test files connect in parallel.
import { openStore } from "../../src/db/connect.js";

export default async function setup() {
  const url = process.env.DATABASE_URL;
  if (!url) return;
  const store = await openStore({ databaseUrl: url, maxConnections: 1 });
  await store.close();
}
