// PostGraphile 5 as bench/peers.ts runs it: the server (postgraphile-server.mjs) on the
// Node 22 the benchmark installed, against a fresh PostgreSQL database of its own with
// one table (event-table.ts), event(row_id serial primary key, body text, revision bigint), whose trigger
// NOTIFYs each new row on the topic `event:<row_id>`. Subscribers are graphql-ws
// subscriptions to `eventChanged(rowId: 1)`, multiplexed over a few sockets by
// bench/subscribers.ts (as Lifeline's are); writes are the auto-CRUD
// `updateEventByRowId` over HTTP keep-alive, each setting `revision` to the write's
// number, which the event carries back.
import postgres from "postgres";
import { freePort } from "../../test/support/ports.js";
import { createBenchDatabase } from "../database.js";
import { Subscribers } from "../subscribers.js";
import { type Child, startChild } from "./child.js";
import { EVENT_TABLE, WARMUP_ROW, WATCHED_ROW } from "./event-table.js";
import type { PostGraphileInstall } from "./install.js";
import type { Mutation, PeerSystem } from "./system.js";

const SERVER = new URL("./postgraphile-server.mjs", import.meta.url).pathname;
const UPDATE = `mutation ($id: Int!, $body: String!, $revision: BigInt!) {
  updateEventByRowId(input: { rowId: $id, eventPatch: { body: $body, revision: $revision } }) { event { rowId revision } } }`;
const SUBSCRIPTION = `subscription { eventChanged(rowId: ${WATCHED_ROW}) { rowId body revision } }`;

export type PostGraphilePeer = PeerSystem & Mutation;

export async function startPostGraphile(install: PostGraphileInstall): Promise<PostGraphilePeer> {
  const database = await createBenchDatabase("peers_postgraphile");
  let child: Child | null = null;
  try {
    const sql = postgres(database.url.toString(), { max: 1, onnotice: () => {} });
    await sql.unsafe(EVENT_TABLE);
    await sql.end({ timeout: 5 });
    const port = await freePort();
    child = await startChild(
      "PostGraphile",
      install.node,
      [SERVER],
      { BENCH_PEERS_DIR: install.dir, DATABASE_URL: database.url.toString(), PORT: String(port), NODE_ENV: "production" },
      /^listening \d+/,
    );
  } catch (error) {
    await child?.stop();
    await database.drop();
    throw error;
  }
  const server = child;
  const url = new URL(`http://127.0.0.1:${(/listening (\d+)/.exec(server.tail()) ?? [])[1]}/graphql`);
  return {
    name: "PostGraphile",
    pid: server.pid,
    transport: "graphql-ws, many subscriptions a socket",
    url,
    async subscribe(count, timeoutMs) {
      const subscribers = new Subscribers(url.toString(), count, Math.max(1, Math.min(25, count)), { snapshots: false });
      await Promise.race([
        subscribers.open(SUBSCRIPTION, {}),
        new Promise((_, reject) => setTimeout(() => reject(new Error("PostGraphile: subscribers did not open in time")), timeoutMs)),
      ]);
      return subscribers;
    },
    // Write n sets the row's revision to n, which its event carries.
    writes: {
      kind: "graphql",
      system: "PostGraphile",
      url: url.toString(),
      query: UPDATE,
      variables: { id: WATCHED_ROW, body: "write {n}", revision: "{n}" },
    },
    warmupWrites: {
      kind: "graphql",
      system: "PostGraphile",
      url: url.toString(),
      query: UPDATE,
      variables: { id: WARMUP_ROW, body: "write {n}", revision: "{n}" },
    },
    revision: (n) => n,
    async prepare(clients) {
      const sql = postgres(database.url.toString(), { max: 1, onnotice: () => {} });
      await sql`insert into event (body) select 'client ' || i from generate_series(1, ${clients}) as i`;
      await sql.end({ timeout: 5 });
    },
    request: (client, i) => ({
      query: UPDATE,
      variables: { id: WARMUP_ROW + 1 + client, body: `client ${client} ${i}`, revision: String(i) },
    }),
    async stop() {
      await server.stop();
      await database.drop();
    },
  };
}
