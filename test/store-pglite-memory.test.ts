// PGlite's shared buffers live in its WebAssembly memory, inside the server's process, and that
// memory never shrinks: the store keeps 16 MB of them (PGLITE_SHARED_BUFFERS), not PostgreSQL's
// default 128 MB, and reads past them come from the file system's cache, as a server's do.
// PGlite is opened here whatever DATABASE_URL says: it is the default store.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openStore, PGLITE_SHARED_BUFFERS, rowsOf } from "../src/db/connect.js";

describe("the PGlite store's memory", () => {
  it(`keeps ${PGLITE_SHARED_BUFFERS} of shared buffers, and with them PostgreSQL's shared memory small`, async () => {
    const store = await openStore({ dataDir: "memory://" });
    try {
      const [row] = rowsOf<{ shared_buffers: string }>(await store.db.execute(sql`show shared_buffers`));
      expect(row?.shared_buffers).toBe(PGLITE_SHARED_BUFFERS);
      // What PostgreSQL allocates in shared memory, all of it in PGlite's WebAssembly memory: 146 MiB with 128 MB, 24 with 16.
      const [shared] = rowsOf<{ mib: number }>(
        await store.db.execute(sql`select (sum(allocated_size) / 1048576)::int as mib from pg_shmem_allocations`),
      );
      expect(shared?.mib).toBeLessThan(48);
    } finally {
      await store.close();
    }
  });
});
