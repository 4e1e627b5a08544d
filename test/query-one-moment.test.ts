// Issue 33, point 4: "A query is one moment". A status query listing units with their
// `application { name }` failed with NOT_FOUND while agents removed the application: its
// nested reads ran as separate statements and saw different moments. Every statement of one
// query now reads the same moment (src/db/one-moment.ts), on PostgreSQL (one REPEATABLE READ,
// READ ONLY transaction) and on PGlite (writes wait while queries read), over every transport.
import { and, eq, sql } from "drizzle-orm";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { openStore, rowsOf, type Store } from "../src/db/connect.js";
import { applications, units } from "../src/db/schema.js";
import type { DbTx } from "../src/db/transaction-runner.js";
import { ensureAdminToken, MAX_UNITS_PER_REQUEST_IN_PROCESS } from "../src/model/index.js";
import { createYogaApp, type RunningServer, startServer } from "../src/server/app.js";
import { REMOVE_APPLICATION, REMOVE_DEAD_UNIT, RUN_CLEANUPS, SET_UNIT_DEAD } from "./support/lifecycle.js";
import { memoryStore } from "./support/pglite-template.js";
import { ADMIN_TOKEN, adminHeaders, createPrivateDatabase, onPostgres, uniqueName } from "./support/store.js";
import { scaled } from "./support/time-scale.js";

interface Result {
  data?: any;
  errors?: { message: string; extensions?: { code?: string; retryable?: unknown } }[];
}
type Transport = (query: string, variables: Record<string, unknown>) => Promise<Result>;

let database: Awaited<ReturnType<typeof createPrivateDatabase>> | undefined;
let store: Store;
let server: RunningServer;
/** Called with each statement the store is handed, before it runs (the PGlite spec's trigger). */
let onStatement: ((text: string) => void) | undefined;

beforeAll(async () => {
  // On PostgreSQL a database of its own: the specs below lock a table, which no other test file should meet.
  database = onPostgres ? await createPrivateDatabase() : undefined;
  const onQuery = (text: string) => onStatement?.(text);
  store = await openStore(database ? { databaseUrl: database.url, maxConnections: 8, onQuery } : { ...(await memoryStore()), onQuery });
  await ensureAdminToken(store.db, ADMIN_TOKEN);
  server = await startServer(store, "127.0.0.1", 0);
});
afterAll(async () => {
  await server?.close();
  await store?.close();
  await database?.drop();
});

const overHttp: Transport = async (query, variables) => {
  const response = await fetch(server.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...adminHeaders },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as Result;
};

const overSse: Transport = async (query, variables) => {
  const response = await fetch(server.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", ...adminHeaders },
    body: JSON.stringify({ query, variables }),
  });
  return JSON.parse(/^data: (.*)$/m.exec(await response.text())?.[1] ?? "{}") as Result;
};

const overWebSocket: Transport = (query, variables) => {
  const client = createClient({
    url: server.url.replace(/^http/, "ws"),
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  return new Promise<Result>((resolve, reject) => {
    let result: Result = {};
    client.subscribe(
      { query, variables },
      {
        next: (r) => {
          result = r as Result;
        },
        error: reject,
        complete: () => resolve(result),
      },
    );
  }).finally(() => client.dispose());
};

async function ok(query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const result = await overHttp(query, variables);
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return result.data;
}

/** A fresh model; its id, for the spec's own statements. */
async function newModel(): Promise<{ name: string; id: string }> {
  const name = uniqueName("moment");
  const data = await ok(`mutation ($name: String!) { addModel(input: { name: $name }) { uuid } }`, { name });
  return { name, id: data.addModel.uuid };
}

/** `count` units of a new application on machine 0 (the model's manager: its units go Dying and Dead as agents take them). */
async function deployOnMachineZero(model: string, charm: string, count: number): Promise<void> {
  await ok(`mutation ($input: DeployInput!) { deploy(input: $input) { name } }`, { input: { model, charm, numUnits: 0 } });
  const perCall = onPostgres ? count : MAX_UNITS_PER_REQUEST_IN_PROCESS;
  for (let added = 0; added < count; added += perCall) {
    const n = Math.min(perCall, count - added);
    await ok(`mutation ($input: AddUnitInput!) { addUnit(input: $input) { name } }`, {
      input: { model, application: charm, count: n, placement: Array(n).fill("0") },
    });
  }
}

const UNITS_WITH_APPLICATION = `query ($model: String!) { model(name: $model) { units { edges { node { name application { name } } } } } }`;

/** What the last unit's removal does to the rows, in one transaction: the unit and its application go together. */
async function removeUnitsAndApplication(tx: DbTx, modelId: string, application: string): Promise<void> {
  await tx.delete(units).where(and(eq(units.modelId, modelId), eq(units.application, application)));
  await tx.delete(applications).where(and(eq(applications.modelId, modelId), eq(applications.name, application)));
}

/** Backends of the store's database waiting for a lock (PostgreSQL). */
async function waitingOnLocks(): Promise<number[]> {
  const rows = rowsOf<{ pid: number }>(
    await store.db.execute(sql`select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`),
  );
  return rows.map((r) => r.pid);
}

/**
 * Runs `query` over `transport` while the applications table is locked (PostgreSQL): its reads of other tables answer,
 * its read of an application waits. `meanwhile` runs inside the lock's transaction once that read waits; the lock
 * ends with it. Returns the query's answer.
 */
async function withApplicationsLocked(
  transport: Transport,
  query: string,
  variables: Record<string, unknown>,
  meanwhile: (tx: DbTx, waiting: readonly number[]) => Promise<void>,
): Promise<Result> {
  let answer!: Promise<Result>;
  await store.db.transaction(async (tx) => {
    await tx.execute(sql`lock table applications in access exclusive mode`);
    answer = transport(query, variables);
    await expect.poll(waitingOnLocks, { timeout: scaled(10_000), interval: 10 }).not.toEqual([]);
    await meanwhile(tx, await waitingOnLocks());
  });
  return answer;
}

/**
 * The application of a unit the query has just listed is removed before the query reads the application: on
 * PostgreSQL while the query's read of it waits on a lock; on PGlite as soon as the query's read of the units page is
 * handed to PGlite, so that the removal's transaction queues between that read and the application's.
 */
async function applicationRemovedBetweenReads(transport: Transport): Promise<Result> {
  const model = await newModel();
  await deployOnMachineZero(model.name, "memcached", 2);
  const remove = (tx: DbTx) => removeUnitsAndApplication(tx, model.id, "memcached");
  if (onPostgres) return withApplicationsLocked(transport, UNITS_WITH_APPLICATION, { model: model.name }, remove);
  let removal: Promise<void> | undefined;
  onStatement = (text) => {
    if (removal || !/^select .* from "units" where .* order by/.test(text)) return;
    removal = Promise.resolve().then(() => store.db.transaction(remove));
  };
  try {
    return await transport(UNITS_WITH_APPLICATION, { model: model.name });
  } finally {
    onStatement = undefined;
    await removal;
    expect(removal, "the removal ran").toBeDefined();
  }
}

describe("a query reads one moment", () => {
  for (const [name, transport] of [
    ["HTTP", overHttp],
    ["SSE", overSse],
    ["graphql-ws", overWebSocket],
  ] as const)
    it(`a unit it lists is found by its application { name }, though the application is removed between the two reads (${name})`, async () => {
      const result = await applicationRemovedBetweenReads(transport);
      expect(result.errors).toBeUndefined();
      expect(result.data.model.units.edges.map((e: any) => e.node)).toEqual([
        { name: "memcached/0", application: { name: "memcached" } },
        { name: "memcached/1", application: { name: "memcached" } },
      ]);
    });

  const STATUS = `query ($model: String!) { model(name: $model) {
    applications(first: 10) { edges { node { name life unitCount } } }
    units(first: 300) { edges { node { name life application { name life unitCount } } } }
    machine(id: "0") { units { name } }
  } }`;

  /** How an answer disagrees with itself: its units, their applications' counts and machine 0's units must be one moment's. */
  function disagreements(data: any): string[] {
    const listed: { name: string; application: { name: string; unitCount: number } }[] = data.model.units.edges.map((e: any) => e.node);
    const apps: { name: string; unitCount: number }[] = data.model.applications.edges.map((e: any) => e.node);
    const found: string[] = [];
    const counted = apps.reduce((n, a) => n + a.unitCount, 0);
    if (counted !== listed.length) found.push(`${listed.length} units listed, ${counted} counted by their applications`);
    for (const unit of listed) {
      const own = listed.filter((u) => u.application.name === unit.application.name).length;
      if (unit.application.unitCount !== own) found.push(`${unit.name}'s application counts ${unit.application.unitCount}, ${own} listed`);
      if (!apps.some((a) => a.name === unit.application.name)) found.push(`${unit.name}'s application is not listed`);
    }
    const onMachine = data.model.machine.units.map((u: any) => u.name).sort();
    if (JSON.stringify(onMachine) !== JSON.stringify(listed.map((u) => u.name).sort()))
      found.push(`machine 0 holds ${onMachine.length} units, ${listed.length} listed`);
    return [...new Set(found)];
  }

  /** Runs `remove` while three clients ask STATUS back to back; returns every answer they got meanwhile. */
  async function statusWhile(model: string, remove: () => Promise<void>): Promise<Result[]> {
    const answers: Result[] = [];
    let removing = true;
    const asking = Array.from({ length: 3 }, async () => {
      while (removing) answers.push(await overHttp(STATUS, { model }));
    });
    try {
      await remove();
    } finally {
      removing = false;
      await Promise.all(asking);
    }
    return answers;
  }

  /** The unit agents' part of a removal, eight at a time: each Dying unit sets itself Dead, then its deployer removes it. */
  async function retireUnits(model: string, count: number): Promise<void> {
    const names = Array.from({ length: count }, (_, i) => `mysql/${i}`);
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let unit = names.shift(); unit; unit = names.shift()) {
          await ok(SET_UNIT_DEAD, { input: { model, unit } });
          await ok(REMOVE_DEAD_UNIT, { input: { model, unit } });
        }
      }),
    );
  }

  const UNITS = 200;
  const removals = {
    "removed as agents do (Dying, each unit Dead and removed)": async (model: string) => {
      await ok(REMOVE_APPLICATION, { input: { model, applications: ["mysql"] } });
      while ((await ok(RUN_CLEANUPS, { model })).runCleanups.remaining > 0);
      await retireUnits(model, UNITS);
    },
    "force-removed (its cleanups run until it is gone)": async (model: string) => {
      await ok(REMOVE_APPLICATION, { input: { model, applications: ["mysql"], force: true } });
      while ((await ok(RUN_CLEANUPS, { model })).runCleanups.remaining > 0);
    },
  };

  for (const [how, remove] of Object.entries(removals))
    it(`a status query hammered while a ${UNITS}-unit application is ${how} never errors, and each answer agrees with itself`, {
      timeout: scaled(180_000),
    }, async () => {
      const { name: model } = await newModel();
      await deployOnMachineZero(model, "mysql", UNITS);
      const answers = await statusWhile(model, () => remove(model));
      expect((await ok(STATUS, { model })).model.applications.edges, "the application is gone").toEqual([]);
      expect(answers.flatMap((a) => a.errors ?? [])).toEqual([]);
      expect(answers.flatMap((a) => disagreements(a.data))).toEqual([]);
      // Not vacuous: answers came while the application was part removed.
      const partly = answers.filter((a) => a.data.model.units.edges.length > 0 && a.data.model.units.edges.length < UNITS);
      expect(partly.length, `${answers.length} answers, ${partly.length} of them mid-removal`).toBeGreaterThan(0);
    });
});

describe.skipIf(!onPostgres)("a query's snapshot on PostgreSQL", () => {
  it("a query whose connection is lost while it reads is answered UNAVAILABLE, retryable, and the next query reads", async () => {
    const model = await newModel();
    await deployOnMachineZero(model.name, "memcached", 1);
    const result = await withApplicationsLocked(overHttp, UNITS_WITH_APPLICATION, { model: model.name }, async (tx, waiting) => {
      for (const pid of waiting) await tx.execute(sql`select pg_terminate_backend(${pid})`);
    });
    expect(result.errors?.length).toBeGreaterThan(0);
    for (const error of result.errors!) expect(error.extensions).toMatchObject({ code: "UNAVAILABLE", retryable: true });
    expect((await ok(UNITS_WITH_APPLICATION, { model: model.name })).model.units.edges).toHaveLength(1);
  });

  it("queries hold at most half the pool: with every query's slot held, a write goes through, the next query waits its turn, and each slot comes back whatever the query's end", async () => {
    const small = await openStore({ databaseUrl: database!.url, maxConnections: 2 }); // one query at a time
    const yoga = createYogaApp(small);
    const overSmall = async (query: string, variables: Record<string, unknown>, signal?: AbortSignal): Promise<Result> => {
      const response = await yoga.fetch("http://lifeline.test/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...adminHeaders },
        body: JSON.stringify({ query, variables }),
        ...(signal ? { signal } : {}),
      });
      return (await response.json()) as Result;
    };
    try {
      const model = await newModel();
      await deployOnMachineZero(model.name, "memcached", 1);
      const aborted = new AbortController();
      let next: Promise<Result> | undefined;
      let nextAnswered = false;
      const held = withApplicationsLocked(
        (query, variables) => overSmall(query, variables, aborted.signal).catch(() => ({}) as Result),
        UNITS_WITH_APPLICATION,
        { model: model.name },
        async () => {
          // The held query's client goes away; its slot is held until its reads end.
          aborted.abort();
          next = overSmall(`query ($model: String!) { model(name: $model) { revision } }`, { model: model.name }).finally(() => {
            nextAnswered = true;
          });
          const written = await overSmall(
            `mutation ($model: String!) { setConstraints(input: { model: $model, constraints: "mem=2G" }) { text } }`,
            {
              model: model.name,
            },
          );
          expect(written).toEqual({ data: { setConstraints: { text: "mem=2G" } } });
          expect(nextAnswered, "the next query waits for the slot").toBe(false);
        },
      );
      await held;
      expect((await next!).data.model.revision).toBeDefined();
      // A query that fails gives its slot back too.
      expect((await overSmall(UNITS_WITH_APPLICATION, { model: "no-such-model" })).errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
      expect((await overSmall(UNITS_WITH_APPLICATION, { model: model.name })).data.model.units.edges).toHaveLength(1);
    } finally {
      await small.close();
    }
  });
});
