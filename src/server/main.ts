// `npm start`: opens the store (embedded PGlite unless DATABASE_URL is set),
// bootstraps the default model on a fresh store, and serves the API.
import { openStore } from "../db/connect.js";
import { DataDirLockedError } from "../db/lock.js";
import { bootstrap } from "../model/index.js";
import { startServer } from "./app.js";
import { configFromEnv } from "./config.js";

async function main() {
  const config = configFromEnv();
  const store = await openStore(config.store);
  await bootstrap(store.db);
  const running = await startServer(store, config.host, config.port, { feed: config.feed, retention: config.retention });
  console.log(`lifeline: store ${store.driver} at ${store.location}`);
  console.log(`lifeline: GraphQL API and GraphiQL at ${running.url}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`lifeline: ${signal}, shutting down`);
    await running.close();
    await store.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error) => {
  if (error instanceof DataDirLockedError) console.error(`lifeline: ${error.message}`);
  else console.error("lifeline: failed to start:", error);
  process.exit(1);
});
