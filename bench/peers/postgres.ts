// PostgreSQL itself, with no server in between: the floor under every system of the grid
// that keeps its state in PostgreSQL (PostGraphile and Lifeline). The table and trigger
// are PostGraphile's (event-table.ts): event(row_id, body, revision), whose trigger
// NOTIFYs each changed row on `event:<row_id>`. Writes are the same `UPDATE` sent by
// postgres.js on one connection (autocommit: one statement, one commit, as PostGraphile's
// mutation and Lifeline's `setConstraints` are); subscribers LISTEN on up to 25
// connections, N of them spread over those as graphql-ws subscriptions are spread over
// sockets, each notification counting as a delivery to every subscriber of its
// connection (what a server does in process once PostgreSQL has told it).
//
// What a PostgreSQL-backed system cannot beat on this machine: its write is at least a
// commit (WAL flushed to disk, `synchronous_commit` as the server has it), and its
// event at least that commit's notification.
import postgres from "postgres";
import { createBenchDatabase } from "../database.js";
import { EVENT_TABLE, WARMUP_ROW, WATCHED_ROW } from "./event-table.js";
import type { Listeners, PeerSystem } from "./system.js";

const UPDATE = "update event set body = $1, revision = $2 where row_id = $3";

export async function startPostgres(): Promise<PeerSystem> {
  const database = await createBenchDatabase("peers_postgres");
  try {
    const sql = postgres(database.url.toString(), { max: 1, onnotice: () => {} });
    await sql.unsafe(EVENT_TABLE);
    await sql.end({ timeout: 5 });
  } catch (error) {
    await database.drop();
    throw error;
  }
  const url = database.url.toString();
  return {
    name: "PostgreSQL",
    pid: null,
    transport: "LISTEN/NOTIFY, no server in between",
    async subscribe(count, timeoutMs) {
      const connections = Math.max(1, Math.min(25, count));
      const arrivals = new Map<number, number[]>();
      const clients: postgres.Sql[] = [];
      const open = async () => {
        for (let c = 0; c < connections; c++) {
          // Subscriber i listens on connection i % connections, as bench/subscribers.ts spreads them over sockets.
          const here = Math.floor(count / connections) + (c < count % connections ? 1 : 0);
          const client = postgres(url, { max: 1, onnotice: () => {} });
          clients.push(client);
          await client.listen(`event:${WATCHED_ROW}`, (payload) => {
            const at = performance.now();
            const revision = Number((JSON.parse(payload) as { revision: string }).revision);
            const times = arrivals.get(revision) ?? [];
            arrivals.set(revision, times);
            for (let s = 0; s < here; s++) times.push(at);
          });
        }
      };
      await Promise.race([
        open(),
        new Promise((_, reject) => setTimeout(() => reject(new Error("PostgreSQL: listeners did not open in time")), timeoutMs)),
      ]);
      return {
        count,
        arrivals,
        close: () => {
          for (const client of clients) void client.end({ timeout: 5 });
        },
      } satisfies Listeners;
    },
    // Write n sets the row's revision to n, which its notification carries.
    writes: { kind: "sql", system: "PostgreSQL", url, statement: UPDATE, row: WATCHED_ROW },
    warmupWrites: { kind: "sql", system: "PostgreSQL", url, statement: UPDATE, row: WARMUP_ROW },
    revision: (n) => n,
    async stop() {
      await database.drop();
    },
  };
}
