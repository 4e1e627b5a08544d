// Several server processes on one PostgreSQL: each tails the same log, so a mutation
// made through one reaches a subscription held on another; a dropped LISTEN connection
// or client socket loses nothing. PGlite is embedded in one process, so on PGlite this
// file skips, and says so.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, type Store } from "../src/db/connect.js";
import { changes } from "../src/db/schema.js";
import { ADMIN_TOKEN, onPostgres, openTestStore, uniqueName } from "./support/store.js";
import { CHANGES, post, subscribe } from "./support/streams.js";
import { scaled } from "./support/time-scale.js";

const root = new URL("..", import.meta.url).pathname;
const children: ChildProcessWithoutNullStreams[] = [];

/** Starts `src/server/main.ts` against DATABASE_URL; resolves with its GraphQL url. */
function startLifeline(name: string, env: Record<string, string> = {}): Promise<string> {
  const url = new URL(process.env.DATABASE_URL!);
  url.searchParams.set("application_name", name); // so a test can find this process's connections
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: "0",
      DATABASE_URL: url.toString(),
      LIFELINE_ADMIN_TOKEN: ADMIN_TOKEN,
      LIFELINE_AGENTS: "0",
      LIFELINE_LOG: "info",
      ...env,
    },
  });
  children.push(child);
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start in time:\n${output}`)), scaled(45_000));
    const check = () => {
      const found = /GraphiQL at (http[^\s"]+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    };
    child.stdout.on("data", (d) => {
      output += d;
      check();
    });
    child.stderr.on("data", (d) => {
      output += d;
      check();
    });
    child.on("exit", (code) => reject(new Error(`${name} exited with ${code}:\n${output}`)));
  });
}

const ok = async (url: string, query: string, variables: Record<string, unknown>) => {
  const result = await post(url, query, variables);
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return result.data;
};
const ADD_MACHINE = `mutation ($m: String!) { addMachine(input: { model: $m }) { id } }`;

describe.skipIf(!onPostgres)("several server processes on one PostgreSQL (skipped on PGlite: it is one process)", () => {
  let store: Store;
  let a = "";
  let b = "";
  beforeAll(async () => {
    store = await openTestStore();
    // B reads the table on its timer only every 10 minutes: what reaches it promptly came by NOTIFY, or by its reconnect catch-up.
    [a, b] = await Promise.all([
      startLifeline(uniqueName("lifeline_a")),
      startLifeline(uniqueName("lifeline_b"), { LIFELINE_CHANGES_POLL_MS: "600000" }),
    ]);
  }, scaled(90_000));
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    await store?.close();
  });

  async function newModel(url: string) {
    const name = uniqueName();
    const { addModel } = await ok(url, `mutation ($name: String!) { addModel(input: { name: $name }) { uuid } }`, { name });
    return { name, id: addModel.uuid as string };
  }

  async function logAfter(modelId: string, after: number) {
    const rows = await store.db
      .select()
      .from(changes)
      .where(and(eq(changes.modelId, modelId), gt(changes.revision, after)))
      .orderBy(asc(changes.revision));
    return rows.map((r) => [String(r.revision), r.kind.toUpperCase(), r.entity]);
  }
  const triples = (events: { revision: string; kind: string | null; entity: string | null }[]) =>
    events.map((e) => [e.revision, e.kind, e.entity]);

  it("a mutation through one process reaches a subscription held on another", async () => {
    const model = await newModel(a);
    const onB = subscribe(b, CHANGES, { model: model.name });
    await onB.synced();
    const r = Number(onB.events.at(-1)!.revision);
    for (let i = 0; i < 5; i++) await ok(a, ADD_MACHINE, { m: model.name });
    const expected = await logAfter(model.id, r);
    await onB.until((s) => s.changes.length >= expected.length);
    expect(triples(onB.changes)).toEqual(expected);
  });

  it("writers on both processes at once: each subscriber sees the table's order", async () => {
    const model = await newModel(a);
    const onA = subscribe(a, CHANGES, { model: model.name });
    const onB = subscribe(b, CHANGES, { model: model.name });
    await Promise.all([onA.synced(), onB.synced()]);
    const r = Number(onB.events.at(-1)!.revision);
    await Promise.all(
      [a, b, a, b].map(async (url) => {
        for (let i = 0; i < 5; i++) await ok(url, ADD_MACHINE, { m: model.name });
      }),
    );
    const expected = await logAfter(model.id, r);
    await Promise.all([onA, onB].map((s) => s.until((x) => x.changes.length >= expected.length)));
    expect(triples(onA.changes)).toEqual(expected);
    expect(triples(onB.changes)).toEqual(expected);
  });

  it("a dropped LISTEN connection loses nothing: the feed catches up when it reconnects", async () => {
    const model = await newModel(a);
    const onB = subscribe(b, CHANGES, { model: model.name });
    await onB.synced();
    const r = Number(onB.events.at(-1)!.revision);
    const killed = await store.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and application_name like 'lifeline_b%' and query ilike 'listen%'`,
    );
    expect(rowsOf(killed).length).toBeGreaterThan(0);
    // Written while B's LISTEN connection is down or coming back: its notifications may be lost.
    for (let i = 0; i < 3; i++) await ok(a, ADD_MACHINE, { m: model.name });
    const expected = await logAfter(model.id, r);
    await onB.until((s) => s.changes.length >= expected.length, 20_000);
    expect(triples(onB.changes)).toEqual(expected);
  });

  it("a client whose socket drops resumes on the other process with exactly what it missed", async () => {
    const model = await newModel(a);
    const first = subscribe(b, CHANGES, { model: model.name });
    await first.synced();
    await ok(a, ADD_MACHINE, { m: model.name });
    await first.until((s) => s.changes.length === 1);
    const last = first.events.at(-1)!.revision;
    await first.close();
    for (let i = 0; i < 3; i++) await ok(b, ADD_MACHINE, { m: model.name });
    const resumed = subscribe(a, CHANGES, { model: model.name, since: last });
    const expected = await logAfter(model.id, Number(last));
    await resumed.until((s) => s.changes.length >= expected.length);
    expect(triples(resumed.changes)).toEqual(expected);
  });
});
