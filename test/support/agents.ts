// The agents of one model, run as `npm start` runs them for every model (the
// controller: machine 0's agent, the provisioner, the cleaner, a machine agent
// per instance, unit agents below those), against a live test server.
import { afterEach } from "vitest";
import { Controller } from "../../src/agents/controller.js";
import type { HookRetryOptions } from "../../src/agents/uniter/retry.js";
import { issueMachineCredentials, modelsNotDead } from "../../src/model/index.js";
import { DummyProvider } from "../../src/provider/dummy.js";
import type { LiveServer } from "./streams.js";

/** Starts a model's agents; every controller started is stopped after each test. */
export function useAgents(live: LiveServer) {
  const controllers: Controller[] = [];
  afterEach(async () => {
    await Promise.all(controllers.splice(0).map((c) => c.stop()));
  });
  return async function agentsFor(
    model: string,
    provider = new DummyProvider(),
    options: { dataDir?: string; hookRetry?: HookRetryOptions } = {},
  ) {
    const controller = new Controller({
      url: live.url,
      provider,
      models: async () => (await modelsNotDead(live.store.db)).filter((name) => name === model),
      pollMs: 50,
      provisionerToken: async (name) => ({
        machine: "0",
        token: (await issueMachineCredentials(live.store.db, { model: name, machine: "0" })).token,
      }),
      startAttempts: 3,
      retryDelayMs: 10,
      cloudPollMs: 50,
      cleanerIntervalMs: 200,
      // A failed hook waits for resolveUnit in these tests, unless one asks for quick retries.
      hookRetry: { baseMs: 600_000, maxMs: 600_000 },
      ...options,
      ...(process.env.LIFELINE_TEST_AGENT_LOG ? { log: (line: string) => console.log(line) } : {}),
    });
    controllers.push(controller);
    await controller.start();
    return { controller, provider };
  };
}
