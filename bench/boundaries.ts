// `npm run bench:boundaries`: issue 32, point 4 ("one request can hold everyone").
// Each large input the attacker sent goes to a real server beside a reader (a small
// read every 5 ms over HTTP keep-alive, on a thread of its own: bench/reader.ts), and
// the reader's worst wait while it runs is what one client costs the others. Each
// case runs at the attacker's size (now refused before coercion) and at the cap (the
// largest input allowed). Per case: the request's answer code and time, the reader's
// worst and p99 wait, beside its worst wait with nothing else running (the baseline),
// measured in the same run.
//
// The server is `npm start`'s (src/server/main.ts: openStore, then startServer) in a
// process of its own, agents off: on in-memory PGlite, and on PostgreSQL too when
// DATABASE_URL names a database (give it one of its own: `createdb -h 127.0.0.1 -U
// postgres lifeline_bench_x`, dropped after). Knobs (environment):
//   BENCH_STORES   "pglite,postgres" (postgres only with DATABASE_URL), default both that can run
//   BENCH_REPEAT   runs of each case, default 3; the table shows the worst of them
//   BENCH_CASES    a comma-separated subset of the case names (default all)
//   BENCH_BESIDE   "reader" (default) or "writer": the client beside each case writes instead,
//                  setConstraints on a model of its own every 5 ms (what a write waits for)
//   BENCH_PROFILE=<dir>  a V8 CPU profile of the server, written there when it stops
// Every request has a deadline; the run stops by itself.
import http from "node:http";
import WebSocket from "ws";
import { CONFIG_LIMITS, MAX_REMOVALS_PER_REQUEST, MAX_UNITS_PER_REQUEST, MAX_UNITS_PER_REQUEST_IN_PROCESS } from "../src/model/index.js";
import { defaultRequestLimits } from "../src/server/request-limits.js";
import { apiAt } from "./api.js";
import { ADMIN_TOKEN, serverNodeFlags, startLifeline } from "./lifeline-process.js";
import { Reader, type ReaderWaits } from "./reader.js";
import { loadAverages, machineLine, ms, printHeader, printRow } from "./stats.js";

const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const DEADLINE_MS = 120_000;
/** How long the reader reads before and after each request under test. */
const MARGIN_MS = 150;
const BASELINE_MS = 2000;
const MODEL = "boundaries";
const limits = defaultRequestLimits;

interface Outcome {
  /** The first error code of the answer, or "ok". */
  code: string;
  ms: number;
}

/** A request under test: prepared (bodies built, sockets opened) before the reader starts; `run` is what is timed. */
interface Prepared {
  run(): Promise<Outcome>;
  /** Undoes what `run` left open (subscriptions' sockets). */
  after?(): Promise<void>;
}

interface Case {
  name: string;
  prepare(url: string): Promise<Prepared>;
}

const codeOf = (text: string) => /"code":"([A-Z_]+)"/.exec(text)?.[1] ?? "ok";

/** Bodies past this go after their headers have had a moment alone (see postBody). */
const EARLY_ANSWER_BYTES = 1024 * 1024;

/**
 * POSTs a body already serialized; the answer's first code and the time to its last byte. A large body's headers go
 * first, and its bytes only if no answer came within 50 ms: a server refusing it by its Content-Length answers and
 * closes, and a client still writing then sees EPIPE instead of the answer.
 */
function postBody(url: string, body: Buffer): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let answered = false;
    const req = http.request(
      url,
      {
        method: "POST",
        agent: false,
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          authorization: `Bearer ${ADMIN_TOKEN}`,
          "content-length": body.length,
        },
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ code: codeOf(Buffer.concat(chunks).toString()), ms: performance.now() - started }));
      },
    );
    req.setTimeout(DEADLINE_MS, () => req.destroy(new Error("no answer within the deadline")));
    req.on("error", (error) => answered || reject(error));
    if (body.length <= EARLY_ANSWER_BYTES) return void req.end(body);
    req.flushHeaders();
    setTimeout(() => answered || req.end(body), 50);
  });
}

const mutation = (query: string, variables: Record<string, unknown>): Case["prepare"] => {
  return async (url) => {
    const body = Buffer.from(JSON.stringify({ query, variables }));
    return { run: () => postBody(url, body) };
  };
};

/** A graphql-ws socket, acknowledged; subscriptions sent on it are timed to their first answer each. */
async function openSocket(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url.replace(/^http/, "ws"), "graphql-transport-ws");
  await new Promise<void>((resolve, reject) => {
    ws.once("error", reject);
    ws.on("open", () => ws.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${ADMIN_TOKEN}` } })));
    ws.once("message", () => resolve());
  });
  return ws;
}

/** `count` subscriptions at once on one socket; done when each has had its first answer (a snapshot's end, or an error). */
const subscriptions = (count: number, query: string, variables: (i: number) => Record<string, unknown>): Case["prepare"] => {
  return async (url) => {
    const ws = await openSocket(url);
    const messages = Array.from({ length: count }, (_, i) =>
      JSON.stringify({ id: String(i), type: "subscribe", payload: { query, variables: variables(i) } }),
    );
    return {
      run: () =>
        new Promise<Outcome>((resolve, reject) => {
          const answered = new Set<string>();
          let code = "ok";
          const started = performance.now();
          const timer = setTimeout(() => reject(new Error(`${count - answered.size} subscriptions unanswered`)), DEADLINE_MS);
          ws.on("message", (data) => {
            const text = data.toString();
            const id = /"id":"([^"]+)"/.exec(text)?.[1];
            if (!id || answered.has(id)) return;
            const isError = text.includes('"type":"error"') || text.includes('"errors"');
            if (!isError && !text.includes('"BOOKMARK"')) return; // a STATE event: the snapshot goes on
            if (isError && code === "ok") code = codeOf(text);
            answered.add(id);
            if (answered.size === count) {
              clearTimeout(timer);
              resolve({ code: count > 1 && code === "ok" ? `ok ×${count}` : code, ms: performance.now() - started });
            }
          });
          ws.once("close", (closeCode) => reject(new Error(`the socket closed (${closeCode})`)));
          for (const message of messages) ws.send(message);
        }),
      after: async () => {
        ws.terminate();
      },
    };
  };
};

const names = <T = string>(count: number, name: (i: number) => T): T[] => Array.from({ length: count }, (_, i) => name(i));
const stateOf = (keys: number): Record<string, number> => Object.fromEntries(names(keys, (i) => [`k${i}`, i]));
const acceptedStateOf = (keys: number): Record<string, number> => Object.fromEntries(names(keys, (i) => [`a${i}`, 0]));

const CHANGES = `subscription ($model: String!, $entities: [String!]) { changes(model: $model, entities: $entities) { type revision } }`;
const UNIT_LIFE = `subscription ($model: String!, $unit: String!) { unitLife(model: $model, unit: $unit) { type revision } }`;
const SET_STATE = `mutation ($input: UnitAgentStateInput!) { setUnitAgentState(input: $input) { name } }`;
const SET_CONFIG = `mutation ($input: SetApplicationConfigInput!) { setApplicationConfig(input: $input) { name } }`;
const REMOVE_MACHINES = `mutation ($input: RemoveMachineInput!) { removeMachine(input: $input) { id outcome } }`;
const ADD_UNIT = `mutation ($input: AddUnitInput!) { addUnit(input: $input) { name } }`;
/** `juju status` of the 1,000-unit model: every machine, application and unit, each unit with its application and machine. */
const STATUS = `query ($m: String!) { model(name: $m) { name life revision
  machines(first: 1000) { edges { node { id life series jobs instanceId status { current message } units { name } } } }
  applications(first: 10) { edges { node { name life series unitCount charm { url } relations { key } } } }
  units(first: 1000) { edges { node { name life workloadStatus { current message } agentStatus { current } application { name } machine { id } } } }
} }`;

const settings = (count: number) => names(count, (i) => ({ key: `option-${i}`, value: "x" }));

/** The cases; the cap on units a call depends on the store (PGlite's is lower: one transaction at a time for everyone). */
const casesFor = (inProcess: boolean): Case[] => [
  {
    name: "changes(entities: 100,000)",
    prepare: subscriptions(1, CHANGES, () => ({ model: MODEL, entities: names(100_000, (i) => `mysql/${i}`) })),
  },
  {
    name: `changes(entities: ${limits.maxListLength}) (cap)`,
    prepare: subscriptions(1, CHANGES, () => ({ model: MODEL, entities: names(limits.maxListLength, (i) => `mysql/${i}`) })),
  },
  {
    name: "setUnitAgentState(300,000 keys, 4.9 MB)",
    prepare: mutation(SET_STATE, { input: { model: MODEL, unit: "mysql/0", state: stateOf(300_000) } }),
  },
  {
    name: "setUnitAgentState(150,000 keys, 1.6 MB: the most keys a body may carry)",
    prepare: mutation(SET_STATE, {
      input: { model: MODEL, unit: "mysql/0", state: Object.fromEntries(names(150_000, (i) => [String(i), 0])) },
    }),
  },
  {
    // The costliest state accepted: the most keys an object may have, short enough to fit the model's 256 KiB.
    name: `setUnitAgentState(${limits.maxObjectKeys} keys) (cap)`,
    prepare: mutation(SET_STATE, { input: { model: MODEL, unit: "mysql/0", state: acceptedStateOf(limits.maxObjectKeys) } }),
  },
  {
    name: "setApplicationConfig(200,000 settings)",
    prepare: mutation(SET_CONFIG, { input: { model: MODEL, application: "mysql", values: settings(200_000) } }),
  },
  {
    name: `setApplicationConfig(${CONFIG_LIMITS.options} settings) (cap)`,
    prepare: mutation(SET_CONFIG, { input: { model: MODEL, application: "mysql", values: settings(CONFIG_LIMITS.options) } }),
  },
  {
    name: "removeMachine(500,000 names)",
    prepare: mutation(REMOVE_MACHINES, { input: { model: MODEL, machines: names(500_000, (i) => String(i + 1000)) } }),
  },
  {
    name: `removeMachine(${MAX_REMOVALS_PER_REQUEST} names) (cap)`,
    prepare: mutation(REMOVE_MACHINES, { input: { model: MODEL, machines: names(MAX_REMOVALS_PER_REQUEST, (i) => String(i + 100_000)) } }),
  },
  {
    name: "addUnit(count: 1000)",
    prepare: mutation(ADD_UNIT, { input: { model: MODEL, application: "wordpress", count: 1000 } }),
  },
  ...[inProcess ? MAX_UNITS_PER_REQUEST_IN_PROCESS : MAX_UNITS_PER_REQUEST].map((count) => ({
    name: `addUnit(count: ${count}) (cap)`,
    prepare: mutation(ADD_UNIT, { input: { model: MODEL, application: "wordpress", count } }),
  })),
  // Concurrent writers to one model share a transaction (group commit, src/model/write/group-commit.ts): a burst of calls at the cap.
  ...[inProcess ? MAX_UNITS_PER_REQUEST_IN_PROCESS : MAX_UNITS_PER_REQUEST].map((count) => ({
    name: `32 × addUnit(count: ${count}) at once`,
    prepare: async (url: string): Promise<Prepared> => {
      const body = Buffer.from(
        JSON.stringify({ query: ADD_UNIT, variables: { input: { model: MODEL, application: "wordpress", count } } }),
      );
      return {
        run: async () => {
          const started = performance.now();
          const outcomes = await Promise.all(Array.from({ length: 32 }, () => postBody(url, body)));
          return { code: outcomes.find((o) => o.code !== "ok")?.code ?? "ok ×32", ms: performance.now() - started };
        },
      };
    },
  })),
  {
    // One query reads one moment (src/db/one-moment.ts): on PGlite writes wait while it reads (BENCH_BESIDE=writer).
    name: "status of 1,000 units (one query)",
    prepare: mutation(STATUS, { m: MODEL }),
  },
  {
    name: "1,000 unitLife subscriptions of one unit, one socket",
    prepare: subscriptions(1000, UNIT_LIFE, () => ({ model: MODEL, unit: "mysql/0" })),
  },
  {
    name: "1,000 unitLife subscriptions of 1,000 units, one socket",
    prepare: subscriptions(1000, UNIT_LIFE, (i) => ({ model: MODEL, unit: `memcached/${i}` })),
  },
];

/** The client beside each case: a small read of the model, or (BENCH_BESIDE=writer) a small write to a model of its own. */
async function besideClient(api: ReturnType<typeof apiAt>, url: string): Promise<Reader> {
  if (process.env.BENCH_BESIDE !== "writer")
    return new Reader(url, ADMIN_TOKEN, `query ($m: String!) { model(name: $m) { revision } }`, { m: MODEL });
  const own = `${MODEL}-beside`;
  await api(`mutation ($m: String!) { addModel(input: { name: $m }) { name } }`, { m: own }).catch(() => {}); // kept from an earlier run
  return new Reader(url, ADMIN_TOKEN, `mutation ($m: String!) { setConstraints(input: { model: $m, constraints: "mem=1G" }) { text } }`, {
    m: own,
  });
}

interface Row {
  store: string;
  name: string;
  code: string;
  ms: number;
  waits: ReaderWaits;
  load: string;
}

async function runStore(store: string, env: Record<string, string>): Promise<{ baseline: ReaderWaits; rows: Row[] }> {
  const server = await startLifeline({ LIFELINE_AGENTS: "0", ...env }, serverNodeFlags());
  const rows: Row[] = [];
  try {
    const api = apiAt(server.url);
    const exists = await api<{ model: unknown }>(`query ($m: String!) { model(name: $m) { name } }`, { m: MODEL }).catch(() => ({
      model: null,
    }));
    if (!exists.model) {
      await api(`mutation ($m: String!) { addModel(input: { name: $m }) { name } }`, { m: MODEL });
      await api(`mutation ($m: String!) { deploy(input: { model: $m, charm: "mysql" }) { name } }`, { m: MODEL });
      await api(`mutation ($m: String!) { deploy(input: { model: $m, charm: "wordpress", numUnits: 0 }) { name } }`, { m: MODEL });
      // 1,000 units for the subscriptions of as many units (placed on one machine: a thousand machines are not the point).
      await api(`mutation ($m: String!) { deploy(input: { model: $m, charm: "memcached", numUnits: 0 }) { name } }`, { m: MODEL });
      const perCall = store === "PGlite" ? MAX_UNITS_PER_REQUEST_IN_PROCESS : MAX_UNITS_PER_REQUEST;
      for (let added = 0; added < 1000; added += perCall) {
        const count = Math.min(perCall, 1000 - added);
        await api(
          `mutation ($m: String!, $n: Int!, $p: [String!]) { addUnit(input: { model: $m, application: "memcached", count: $n, placement: $p }) { name } }`,
          {
            m: MODEL,
            n: count,
            p: Array(count).fill("1"),
          },
        );
      }
    }
    const reader = await besideClient(api, server.url);
    try {
      await reader.alone(500); // warm-up
      const baseline = await reader.alone(BASELINE_MS);
      const only = process.env.BENCH_CASES?.split(",").map((s) => s.trim());
      for (const each of casesFor(store === "PGlite")) {
        if (only && !only.some((name) => each.name.startsWith(name))) continue;
        let worst: Row | null = null;
        for (let i = 0; i < REPEAT; i++) {
          const load = loadAverages();
          const prepared = await each.prepare(server.url);
          await reader.start();
          await new Promise((r) => setTimeout(r, MARGIN_MS));
          const outcome = await prepared.run().catch((error: Error) => ({ code: `failed: ${error.message}`, ms: NaN }));
          await new Promise((r) => setTimeout(r, MARGIN_MS));
          const waits = await reader.stop();
          await prepared.after?.();
          const row = { store, name: each.name, ...outcome, waits, load };
          if (!worst || waits.max > worst.waits.max) worst = row;
        }
        rows.push(worst!);
        console.error(`bench: ${store} ${each.name}: ${worst!.code} in ${ms(worst!.ms)}, reader worst ${ms(worst!.waits.max)}`);
      }
      return { baseline, rows };
    } finally {
      await reader.close();
    }
  } finally {
    await server.stop();
  }
}

async function main() {
  const startLoad = loadAverages();
  const wanted = (process.env.BENCH_STORES ?? "pglite,postgres").split(",").map((s) => s.trim());
  const stores: [string, Record<string, string>][] = [];
  // DATABASE_URL emptied: the server inherits this process's environment, and would otherwise open PostgreSQL.
  if (wanted.includes("pglite")) stores.push(["PGlite", { LIFELINE_DATA_DIR: "memory://", DATABASE_URL: "" }]);
  if (wanted.includes("postgres")) {
    if (process.env.DATABASE_URL) stores.push(["PostgreSQL", { DATABASE_URL: process.env.DATABASE_URL }]);
    else console.error("bench: no DATABASE_URL: PostgreSQL skipped");
  }
  const results = [];
  for (const [name, env] of stores) results.push({ name, ...(await runStore(name, env)) });
  console.log(machineLine(startLoad));
  console.log();
  for (const { name, baseline } of results)
    console.log(`${name}: the reader alone (baseline): worst ${ms(baseline.max)}, p99 ${ms(baseline.p99)}, ${baseline.count} reads`);
  console.log();
  printHeader(["store", "request", "answer", "time", "reader worst", "reader p99", "reads (failed)", "load (1, 5, 15 min)"]);
  for (const { rows } of results)
    for (const row of rows)
      printRow([
        row.store,
        row.name,
        row.code,
        ms(row.ms),
        ms(row.waits.max),
        ms(row.waits.p99),
        `${row.waits.count} (${row.waits.failures})`,
        row.load,
      ]);
}

main().catch((error) => {
  console.error("bench:", error);
  process.exit(1);
});
