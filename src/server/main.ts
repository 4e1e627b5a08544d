// `npm start`: opens the store (embedded PGlite unless DATABASE_URL is set),
// bootstraps the default model on a fresh store, and serves the API.

import { Controller } from "../agents/controller.js";
import { openStore } from "../db/connect.js";
import { DataDirLockedError } from "../db/lock.js";
import { aliveModelNames, bootstrap, bootstrapAdmin, createLoginCode, ensureAdminToken, issueMachineCredentials } from "../model/index.js";
import { DummyProvider } from "../provider/dummy.js";
import { DummyStateError } from "../provider/dummy-state.js";
import { LOGIN_PATH, startServer } from "./app.js";
import { configFromEnv } from "./config.js";

async function main() {
  const config = configFromEnv();
  const store = await openStore(config.store);
  await bootstrap(store.db);
  // LIFELINE_ADMIN_TOKEN (scripts, tests) is an admin token; without it, the first start makes one and shows it once.
  if (process.env.LIFELINE_ADMIN_TOKEN) await ensureAdminToken(store.db, process.env.LIFELINE_ADMIN_TOKEN);
  const firstAdmin = await bootstrapAdmin(store.db);
  // Shown the moment it exists: only its hash is kept, so a start that fails later must not lose it.
  if (firstAdmin) console.log(`lifeline: admin token, shown only now (Lifeline keeps only its hash): ${firstAdmin}`);
  // The agents: each model's provisioner on the built-in dummy cloud, and a machine agent per instance it starts.
  const { cloudFile } = config.agents;
  const provider = config.agents.enabled ? new DummyProvider(cloudFile ? { stateFile: cloudFile } : {}) : null;
  if (provider) console.log(`lifeline: dummy cloud ${cloudFile ? `kept in ${cloudFile}` : "in memory"}`);
  const running = await startServer(store, config.host, config.port, {
    feed: config.feed,
    retention: config.retention,
    ...(provider ? { provider } : {}),
  });
  const controller = provider
    ? new Controller({
        url: running.url,
        provider,
        models: () => aliveModelNames(store.db),
        // The controller hands each model's provisioner the credentials of the model's manager machine, as Juju's bootstrap does.
        provisionerToken: async (model) => ({
          machine: "0",
          token: (await issueMachineCredentials(store.db, { model, machine: "0" })).token,
        }),
        startAttempts: config.agents.startAttempts,
        retryDelayMs: config.agents.retryDelayMs,
        cloudPollMs: config.agents.cloudPollMs,
        log: (line) => console.log(`lifeline: ${line}`),
      })
    : null;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`lifeline: ${signal}, shutting down`);
    await controller?.stop();
    await running.close();
    await store.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  await controller?.start();

  // Printed once everything runs: the last line is the one to open.
  console.log(`lifeline: store ${store.driver} at ${store.location}`);
  console.log(`lifeline: GraphQL API and GraphiQL at ${running.url}`);
  // As Jupyter does: a link that logs the browser in, so GraphiQL works without pasting a token.
  const login = new URL(LOGIN_PATH, running.url);
  login.searchParams.set("code", await createLoginCode(store.db));
  console.log(`lifeline: open GraphiQL logged in as an admin (the link works once, within a day): ${login}`);
}

main().catch((error) => {
  if (error instanceof DataDirLockedError || error instanceof DummyStateError) console.error(`lifeline: ${error.message}`);
  else console.error("lifeline: failed to start:", error);
  process.exit(1);
});
