// Whether the database has every migration this source ships (drizzle/): /readyz asks, since a server started by an
// older release, or a database restored from an older backup, may be behind the code reading it.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { type Database, rowsOf } from "./connect.js";

const journal = fileURLToPath(new URL("../../drizzle/meta/_journal.json", import.meta.url));

/** The newest migration this source ships: its tag and its `when` (drizzle-kit's timestamp, kept as created_at). */
function newestShipped(): { tag: string; when: number } {
  const { entries } = JSON.parse(readFileSync(journal, "utf8")) as { entries: { tag: string; when: number }[] };
  return entries[entries.length - 1]!;
}

export interface MigrationState {
  applied: boolean;
  /** The newest migration the source ships. */
  expected: string;
}

export async function migrationState(db: Database): Promise<MigrationState> {
  const newest = newestShipped();
  const rows = rowsOf<{ at: string | number | null }>(
    await db.execute(sql`select max(created_at) as at from drizzle.__drizzle_migrations`),
  );
  const at = Number(rows[0]?.at ?? 0);
  return { applied: at >= newest.when, expected: newest.tag };
}
