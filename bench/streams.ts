// `npm run bench`: commit-to-delivery latency of change streams with 1, 100, 1,000 and
// 10,000 concurrent subscriptions on one server, and mutation throughput while they
// listen, each beside this machine's raw PostgreSQL single-row insert, measured in
// the same run, as ratios.
//
// It needs a PostgreSQL server on a loopback address (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/postgres), creates a database of its own there
// and drops it at the end. The server under test runs as its own process (as
// `npm start` does); the subscribers and writers run here. Every loop is bounded.
import { print } from "graphql";
import { logWindow } from "../src/changes/replay.js";
import { ChangesDocument } from "../src/client/graphql.js";
import { openStore } from "../src/db/connect.js";
import { addModel, setConstraints } from "../src/model/index.js";
import { createBenchDatabase } from "./database.js";
import { type LifelineProcess, serverNodeFlags, startLifeline } from "./lifeline-process.js";
import { cpuSeconds } from "./process-sampler.js";
import { measureRawInserts } from "./raw-postgres.js";
import { loadAverages, machineLine, ms, printHeader, printRow, rate, ratio, summary } from "./stats.js";
import { BENCH_TOKEN, Subscribers } from "./subscribers.js";

const sizes = (process.env.BENCH_SUBSCRIPTIONS ?? "1,100,1000,10000").split(",").map(Number);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 40);
const EVENT_INTERVAL_MS = Number(process.env.BENCH_EVENT_INTERVAL_MS ?? 5); // offered: 200 events/s, the reference load
const WRITERS = 4;
const THROUGHPUT_SECONDS = Number(process.env.BENCH_THROUGHPUT_SECONDS ?? 5);

// What each subscriber selects. `all` (default): the generated client's Changes document, every kind's typed entity
// and `changed`, as a tool watching everything selects it (each event then carries the other kinds' fields as null).
// `model`: the envelope, `changed` and the kind the benchmark writes (MODEL), as a client selects the kinds it watches.
const CHANGES =
  process.env.BENCH_SELECTION === "model"
    ? `subscription ($model: String!) { changes(model: $model) {
        type revision kind entity life removed changed model { name defaultSeries automaticallyRetryHooks constraints { text } } } }`
    : print(ChangesDocument);
const SET = `mutation ($m: String!, $c: String!) { setConstraints(input: { model: $m, constraints: $c }) { text } }`;

const sleep = (msecs: number) => new Promise((r) => setTimeout(r, msecs));

async function mutationThroughput(url: string, models: string[], seconds: number): Promise<number> {
  let count = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    models.map(async (model, w) => {
      for (let i = 0; performance.now() < deadline; i++) {
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${BENCH_TOKEN}` },
          body: JSON.stringify({ query: SET, variables: { m: model, c: `cores=${w * 100000 + i + 1}` } }),
        });
        const body = (await response.json()) as { errors?: unknown };
        if (body.errors) throw new Error(`mutation failed: ${JSON.stringify(body.errors)}`);
        count++;
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

const startLoad = loadAverages();

async function main() {
  const database = await createBenchDatabase("streams");
  const { name: dbName, url: dbUrl } = database;
  let server: LifelineProcess | null = null;
  const store = await openStore({ databaseUrl: dbUrl.toString(), maxConnections: WRITERS });
  try {
    // npm start's flags and environment; BENCH_PROFILE=<dir> writes a V8 CPU profile of the server there when it stops.
    server = await startLifeline(
      {
        DATABASE_URL: dbUrl.toString(),
        LIFELINE_BOOKMARK_INTERVAL_MS: "600000",
        LIFELINE_ADMIN_TOKEN: BENCH_TOKEN,
        // The benchmark measures streams; its models' machines need no provisioning.
        LIFELINE_AGENTS: "0",
      },
      serverNodeFlags(),
    );
    console.log(
      `bench: server at ${server.url}, database ${dbName}; ${EVENTS} events at ${1000 / EVENT_INTERVAL_MS}/s per size, then ${WRITERS} writers (one per model) for ${THROUGHPUT_SECONDS}s`,
    );
    const raw = await measureRawInserts(dbUrl.toString(), WRITERS, 3);
    const rows: string[][] = [];
    for (const n of sizes) {
      // Within a model writes serialize on its revision (that is what orders the log), so
      // the load is spread the way a controller's is: over models, one writer each, and
      // the subscriptions spread evenly over those models.
      const models = await Promise.all(Array.from({ length: WRITERS }, (_, w) => addModel(store.db, { name: `bench-${n}-${w}` })));
      const groups = models.map((model, w) => ({
        model,
        subs: new Subscribers(server!.url, Math.floor(n / WRITERS) + (w < n % WRITERS ? 1 : 0), Math.max(1, Math.min(25, n))),
      }));
      const opening = performance.now();
      for (const g of groups) if (g.subs.count > 0) await g.subs.open(CHANGES, { model: g.model.name });
      const openSeconds = (performance.now() - opening) / 1000;

      // Latency: paced single writes through the model's write path (round robin over the
      // models that have subscribers), timed at commit.
      const listened = groups.filter((g) => g.subs.count > 0);
      const committed = new Map<string, Map<number, number>>();
      // Only this loop writes to these models now, so each commit is the next revision.
      const next = new Map<string, number>();
      for (const g of listened) next.set(g.model.id, (await logWindow(store.db, g.model.id)).revision + 1);
      const latencyStart = performance.now();
      const cpuStart = cpuSeconds(server.pid);
      for (let i = 0; i < EVENTS; i++) {
        const g = listened[i % listened.length]!;
        const tick = performance.now();
        await setConstraints(store.db, { model: g.model.name, constraints: `cores=${i + 1}` });
        const at = performance.now();
        const revision = next.get(g.model.id)!;
        next.set(g.model.id, revision + 1);
        if (!committed.has(g.model.id)) committed.set(g.model.id, new Map());
        committed.get(g.model.id)!.set(revision, at);
        await sleep(Math.max(0, EVENT_INTERVAL_MS - (performance.now() - tick)));
      }
      let complete = true;
      const latencies: number[] = [];
      for (const g of listened) {
        const times = committed.get(g.model.id)!;
        complete = (await g.subs.delivered(next.get(g.model.id)! - 1, 120_000)) && complete;
        for (const [revision, at] of times)
          for (const arrival of g.subs.arrivals.get(revision) ?? []) latencies.push(Math.max(0, arrival - at));
      }
      // The server's CPU for the phase (commits' change rows read, each event executed and written to every socket).
      const cpuPerDelivery = ((cpuSeconds(server.pid) - cpuStart) * 1e6) / Math.max(1, latencies.length);
      const lat = summary(latencies);
      let lastArrival = 0;
      for (const g of listened) for (const list of g.subs.arrivals.values()) for (const at of list) lastArrival = Math.max(lastArrival, at);
      let lastCommit = 0;
      for (const times of committed.values()) for (const at of times.values()) lastCommit = Math.max(lastCommit, at);
      const offered = EVENTS / ((lastCommit - latencyStart) / 1000);
      const deliveredRate = latencies.length / ((lastArrival - latencyStart) / 1000);

      // Throughput: mutations through the API, one writer per model as fast as it can, while everyone listens.
      const before = await Promise.all(groups.map((g) => logWindow(store.db, g.model.id)));
      const mutations = await mutationThroughput(
        server.url,
        models.map((m) => m.name),
        THROUGHPUT_SECONDS,
      );
      const after = await Promise.all(groups.map((g) => logWindow(store.db, g.model.id)));
      const draining = performance.now();
      let drained = true;
      for (const [i, g] of groups.entries())
        if (g.subs.count > 0) drained = (await g.subs.delivered(after[i]!.revision, 180_000)) && drained;
      const drainSeconds = (performance.now() - draining) / 1000;
      const deliveries = groups.reduce((sum, g, i) => sum + (after[i]!.revision - before[i]!.revision) * g.subs.count, 0);
      for (const g of groups) g.subs.close();

      rows.push([
        n.toLocaleString("en-US"),
        rate(offered),
        `${rate(deliveredRate)}${complete ? "" : " (incomplete)"}`,
        ms(lat.p50),
        ms(lat.p99),
        `${cpuPerDelivery.toFixed(1)} µs`,
        ratio(lat.p50 / raw.insertLatency.p50),
        ratio(lat.p99 / raw.insertLatency.p50),
        rate(mutations),
        ratio(mutations / raw.insertRate),
        `${rate(deliveries / (THROUGHPUT_SECONDS + drainSeconds))}${drained ? "" : " (incomplete)"}`,
        `${openSeconds.toFixed(1)} s`,
      ]);
      console.log(`bench: ${n} subscriptions done`);
    }
    console.log("");
    console.log(machineLine(startLoad));
    console.log(
      `raw PostgreSQL, same run: single-row insert p50 ${ms(raw.insertLatency.p50)}, p99 ${ms(raw.insertLatency.p99)} (one connection); ` +
        `${rate(raw.insertRate)} with ${WRITERS} connections`,
    );
    console.log("");
    const header = [
      "subscriptions",
      "events committed",
      "deliveries",
      "latency p50",
      "p99",
      "server CPU a delivery",
      "p50 ÷ raw insert p50",
      "p99 ÷ raw insert p50",
      "mutations while listening",
      "÷ raw insert rate",
      "deliveries (throughput phase)",
      "subscribe all",
    ];
    printHeader(header);
    for (const row of rows) printRow(row);
  } finally {
    await server?.stop();
    await store.close();
    await database.drop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error("bench failed:", error);
    process.exit(1);
  },
);
