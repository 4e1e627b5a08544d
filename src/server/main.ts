// `npm start`: opens the store (embedded PGlite unless DATABASE_URL is set),
// bootstraps the default model on a fresh store, and serves the API.

// First: before anything loads graphql (production-mode.ts).
import "./production-mode.js";
import { exitAfterLog, loggerFor } from "../core/log.js";
import { openStore } from "../db/connect.js";
import { DataDirLockedError } from "../db/lock.js";
import {
  bootstrap,
  bootstrapAdmin,
  createLoginCode,
  ensureAdminToken,
  issueMachineCredentials,
  modelsNotDead,
  outageReporter,
  unavailable,
} from "../model/index.js";
import { DummyStateError } from "../provider/dummy-state.js";
import { AgentLeader, agentsLock, soleProcess } from "./agent-leader.js";
import { type AgentsThread, startAgentsThread } from "./agents-thread.js";
import { LOGIN_PATH, startServer } from "./app.js";
import { configFromEnv } from "./config.js";
import { limitHeapGrowth } from "./heap-growth.js";

/**
 * The backstop of "no error from the driver ends the process": a statement whose answer nobody awaited any more when its
 * connection went (the outage's failure reaches its caller through another statement of the same transaction) rejects
 * unheard. Seen under load around a PostgreSQL restart, from a place not yet found: said, with its cause, and the
 * process goes on. Anything else unhandled still ends the process, as Node's default does.
 */
const server = loggerFor("server");
const reportStrayOutage = outageReporter((cause) =>
  server.error({ cause }, `a database failure nothing was waiting for (${cause}); the process goes on`),
);
process.on("unhandledRejection", (reason) => {
  if (!unavailable(reason)) throw reason;
  reportStrayOutage(reason);
});

/** The agent a line of the agents' log is about, as it names itself first ("unit-wordpress-0: ran hook install"). */
const AGENT_OF_LINE = /^((?:machine|unit)-[\w.-]+|(?:provisioner|cleaner) of [^:]+|controller|agents): /;

async function main() {
  const config = configFromEnv();
  limitHeapGrowth(config.heapGrowthPercent, config.heapGrowthMinMiB);
  const store = await openStore(config.store);
  await bootstrap(store.db);
  // LIFELINE_ADMIN_TOKEN (scripts, tests) is an admin token, the environment's only one: rotating it (or unsetting it)
  // revokes the last. Without it, the first start makes one and shows it once.
  await ensureAdminToken(store.db, process.env.LIFELINE_ADMIN_TOKEN || null);
  const firstAdmin = await bootstrapAdmin(store.db);
  // Shown the moment it exists: only its hash is kept, so a start that fails later must not lose it.
  if (firstAdmin) server.info({ token: firstAdmin }, `admin token, shown only now (Lifeline keeps only its hash): ${firstAdmin}`);
  // The agents, while this process runs them, on a thread of their own: the dummy cloud, and its controller (each
  // model's machine 0 agent and provisioner, a machine agent per instance).
  let agents: AgentsThread | null = null;
  const running = await startServer(store, config.host, config.port, {
    feed: config.feed,
    retention: config.retention,
    hookHistory: config.hookHistory,
    limits: config.limits,
    http: config.http,
    ...(config.metricsListen ? { metricsListen: config.metricsListen } : {}),
    keepAliveMs: config.keepAliveMs,
    presence: config.presence,
    origins: config.origins,
    sessions: config.sessions,
    // The admin's cloud API reaches the cloud of this process's agents, while they run here.
    ...(config.agents.enabled ? { provider: () => agents?.cloud } : {}),
  });
  // The agents' lines and the election's: each names its agent ("machine-1: started", "provisioner of default: …").
  const agentsLog = loggerFor("controller");
  const log = (line: string) => {
    const agent = AGENT_OF_LINE.exec(line)?.[1];
    agentsLog.info(agent ? { agent } : {}, line);
  };

  /** Starts the agents (the cloud read from its file, its instances booted); resolves with how to stop them. */
  const runAgents = async () => {
    const { cloudFile, startAttempts, retryDelayMs, cloudPollMs } = config.agents;
    log(`dummy cloud ${cloudFile ? `kept in ${cloudFile}` : "in memory"}`);
    const thread = await startAgentsThread(
      { url: running.url, ...(cloudFile ? { cloudFile } : {}), startAttempts, retryDelayMs, cloudPollMs },
      {
        models: () => modelsNotDead(store.db),
        // The controller hands each model's machine 0 agent and provisioner the credentials of that manager machine, as Juju's bootstrap does.
        provisionerToken: async (model) => ({
          machine: "0",
          token: (await issueMachineCredentials(store.db, { model, machine: "0" })).token,
        }),
        log: (lines) => {
          for (const line of lines) log(line);
        },
      },
      // Agent code that throws where nothing catches it ends their thread, not the API: they start again later.
      (reason) => void leader?.agentsEnded(reason),
    );
    agents = thread;
    return async () => {
      agents = null;
      await thread.stop();
    };
  };
  const { databaseUrl } = config.store as { databaseUrl?: string };
  const leader = config.agents.enabled
    ? new AgentLeader({
        lock: (lost) => (databaseUrl ? agentsLock(databaseUrl, lost) : soleProcess),
        lead: runAgents,
        retryMs: config.agents.electionMs,
        log,
      })
    : null;
  if (!leader) log("agents: off (LIFELINE_AGENTS=0)");

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.info({ signal }, `${signal}, shutting down`);
    await leader?.stop();
    await running.close();
    await store.close();
    exitAfterLog(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  await leader?.start();

  // Printed once everything runs: the last line is the one to open.
  server.info({ driver: store.driver, location: store.location }, `store ${store.driver} at ${store.location}`);
  const metricsAt = `${running.metricsUrl} (${config.metricsListen ? "no token asked" : "an admin's bearer token"})`;
  const [healthz, readyz] = [new URL("/healthz", running.url).href, new URL("/readyz", running.url).href];
  server.info({ healthz, readyz, metrics: running.metricsUrl }, `health at ${healthz} and ${readyz}; Prometheus metrics at ${metricsAt}`);
  server.info({ url: running.url }, `GraphQL API and GraphiQL at ${running.url}`);
  // As Jupyter does: a link that logs the browser in, so the status page (and GraphiQL) work without pasting a token. It revokes the last
  // start's link.
  const login = new URL(LOGIN_PATH, config.origins.publicUrl ?? running.url);
  const code = await createLoginCode(store.db, config.sessions);
  login.searchParams.set("code", code);
  // The command line's code is another (src/cli keeps a token of its own): opening the link does not spend it.
  const commandCode = await createLoginCode(store.db, config.sessions, Date.now(), "command line");
  const base = new URL(".", login).href.replace(/\/$/, "");
  server.info(
    { command: `lifeline login ${base} --code ${commandCode}` },
    `log the lifeline command in: lifeline login ${base} --code ${commandCode}`,
  );
  const minutes = Math.round(config.sessions.loginLinkMs / 60_000);
  const within = minutes >= 1 ? `${minutes} minute${minutes === 1 ? "" : "s"}` : `${config.sessions.loginLinkMs / 1000} s`;
  server.info({ url: login.href }, `open the status page logged in as an admin (the link works once, within ${within}): ${login}`);
}

main().catch((error) =>
  exitAfterLog(1, () => {
    if (error instanceof DataDirLockedError || error instanceof DummyStateError) server.fatal(error.message);
    else server.fatal({ err: error }, `failed to start: ${error instanceof Error ? error.message : String(error)}`);
  }),
);
