// Lifeline as bench/peers.ts runs it: its server as `npm start` runs it, in a process of
// its own (bench/lifeline-process.ts), its agents off (the only writes are the
// benchmark's), on a fresh database of its own. Subscribers are `changes`
// subscriptions of one model, multiplexed over a few graphql-ws sockets
// (bench/subscribers.ts, as `npm run bench` opens them); writes are `setConstraints`
// on that model over HTTP keep-alive. Nothing else writes to the model, so each write
// is the model's next revision after the one the subscribers' snapshots ended at.
import { print } from "graphql";
import { ChangesDocument } from "../../src/client/graphql.js";
import { apiAt } from "../api.js";
import { createBenchDatabase } from "../database.js";
import { ADMIN_TOKEN, serverNodeFlags, startLifeline } from "../lifeline-process.js";
import { Subscribers } from "../subscribers.js";
import type { Mutation, PeerSystem } from "./system.js";

const MODEL = "bench-peers";
const WARMUP_MODEL = "bench-peers-warm-up";
const clientModel = (client: number) => `bench-peers-client-${client}`;
const ADD_MODEL = `mutation ($name: String!) { addModel(input: { name: $name }) { name } }`;
const SET = `mutation ($m: String!, $c: String!) { setConstraints(input: { model: $m, constraints: $c }) { text } }`;

// What each subscriber selects, as `npm run bench`'s BENCH_SELECTION: `model` (the default here): the envelope,
// `changed` and the kind the benchmark writes, as a client selects what it watches; `all`: the generated client's
// Changes document, every kind's typed entity.
const CHANGES =
  process.env.BENCH_SELECTION === "all"
    ? print(ChangesDocument)
    : `subscription ($model: String!) { changes(model: $model) {
        type revision kind entity life removed changed model { name defaultSeries automaticallyRetryHooks constraints { text } } } }`;

export type LifelinePeer = PeerSystem & Mutation;

export async function startLifelinePeer(): Promise<LifelinePeer> {
  const database = await createBenchDatabase("peers_lifeline");
  let server: Awaited<ReturnType<typeof startLifeline>>;
  try {
    server = await startLifeline(
      {
        DATABASE_URL: database.url.toString(),
        LIFELINE_AGENTS: "0",
        LIFELINE_BOOKMARK_INTERVAL_MS: "600000",
      },
      serverNodeFlags(),
    );
  } catch (error) {
    await database.drop();
    throw error;
  }
  const api = apiAt(server.url);
  await api(ADD_MODEL, { name: MODEL });
  await api(ADD_MODEL, { name: WARMUP_MODEL });
  const url = new URL(server.url);
  // Where the last subscribers' snapshots ended: the model's revision then, and the number of the next write.
  let snapshot = { revision: 0, next: 0 };
  return {
    name: "Lifeline",
    pid: server.pid,
    transport: "graphql-ws, many subscriptions a socket",
    url,
    async subscribe(count, timeoutMs, next) {
      const subscribers = new Subscribers(server.url, count, Math.max(1, Math.min(25, count)), { token: ADMIN_TOKEN });
      await Promise.race([
        subscribers.open(CHANGES, { model: MODEL }),
        new Promise((_, reject) => setTimeout(() => reject(new Error("Lifeline: subscribers did not sync in time")), timeoutMs)),
      ]);
      snapshot = { revision: Math.max(0, ...subscribers.lastRevision.values()), next };
      return subscribers;
    },
    writes: { kind: "graphql", system: "Lifeline", url: server.url, query: SET, variables: { m: MODEL, c: "cores={n}" } },
    warmupWrites: { kind: "graphql", system: "Lifeline", url: server.url, query: SET, variables: { m: WARMUP_MODEL, c: "cores={n}" } },
    revision: (n) => snapshot.revision + (n - snapshot.next) + 1,
    async prepare(clients) {
      for (let c = 0; c < clients; c++) await api(ADD_MODEL, { name: clientModel(c) });
    },
    request: (client, i) => ({ query: SET, variables: { m: clientModel(client), c: `cores=${i + 1}` } }),
    async stop() {
      await server.stop();
      await database.drop();
    },
  };
}
