// A model's writers in one process take turns in memory before taking a pooled
// connection (src/model/write/turns.ts): thousands of agents write to one model,
// and writers waiting for its row lock once held every connection of the pool,
// so every read (a stream's snapshot, a status query) starved behind them.
// PostgreSQL only: PGlite is one connection, with nothing to starve.
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { useApi } from "./support/api.js";
import { deploy } from "./support/fixtures.js";
import { onPostgres } from "./support/store.js";
import { scaled } from "./support/time-scale.js";

const api = useApi();

const SET_CONSTRAINTS = `mutation ($input: SetConstraintsInput!) { setConstraints(input: $input) { text } }`;
/** More writers than the test store's pool has connections (8). */
const WRITERS = 20;

describe.skipIf(!onPostgres)("writers of one model take turns (skipped on PGlite: one connection, nothing to starve)", () => {
  it("while many writers of a model wait for its row lock, reads still get a connection; then every write commits", {
    timeout: scaled(60_000),
  }, async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "mysql", numUnits: 0 });
    const outside = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    const watcher = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    try {
      let writes: Promise<PromiseSettledResult<unknown>[]> = Promise.resolve([]);
      await outside.begin(async (tx) => {
        // Another process holds the model's row lock, as a long writer would.
        await tx`select 1 from models where name = ${model} for no key update`;
        const holder = (await tx<{ holder: number }[]>`select pg_backend_pid() as holder`)[0]!.holder;
        // Settled-collected at once, so a failed assertion below leaves no write's rejection unhandled.
        writes = Promise.allSettled(
          Array.from({ length: WRITERS }, (_, i) =>
            api.ok(SET_CONSTRAINTS, { input: { model, application: "mysql", constraints: `cores=${i + 1}` } }),
          ),
        );
        // Wait (with a deadline) until the first writer is blocked by the holder: the rest are queued behind it. Read
        // from another connection: inside a transaction pg_stat_activity is a snapshot, taken at its first read.
        const blockedNow = async () =>
          (await watcher`select count(*)::int as n from pg_stat_activity where ${holder} = any(pg_blocking_pids(pid))`)[0]!.n;
        await expect.poll(blockedNow, { timeout: scaled(10_000), interval: 50 }).toBeGreaterThanOrEqual(1);
        // A read through the same store's pool is answered while the lock is still held.
        const read = await Promise.race([
          api.ok(`query ($m: String!) { model(name: $m) { name applications { edges { node { name } } } } }`, { m: model }),
          new Promise((_, reject) => setTimeout(() => reject(new Error("the read starved behind the waiting writers")), scaled(5_000))),
        ]);
        expect(read).toMatchObject({ model: { name: model } });
      });
      expect((await writes).filter((w) => w.status !== "fulfilled")).toEqual([]);
      const { model: m } = await api.ok(`query ($m: String!) { model(name: $m) { application(name: "mysql") { constraints { text } } } }`, {
        m: model,
      });
      expect(m.application.constraints.text).toMatch(/^cores=\d+$/);
    } finally {
      await outside.end({ timeout: 5 });
      await watcher.end({ timeout: 5 });
    }
  });
});
