// `npm start`'s agents run on a thread of their own (agents-worker.ts): their event
// loop and heap are not the API's. On one, every agent's stream event and request was a
// turn the API's own work waited behind, and the writers of a model, who take one round
// trip each in turn, waited a turn of that loop for each answer (docs/decisions.md,
// "Agents on a thread of their own"). The agents still reach the API only over its socket.
import { Worker } from "node:worker_threads";
import type { CloudControl } from "../graphql/context.js";
import type { DummyDescription } from "../provider/dummy.js";
import { DummyStateError } from "../provider/dummy-state.js";
import type { Instance } from "../provider/provider.js";
import { ThreadCalls } from "./thread-calls.js";

/** What the agents' thread is started with. */
export interface AgentsStart {
  url: string;
  cloudFile?: string;
  startAttempts?: number;
  retryDelayMs?: number;
  cloudPollMs?: number;
}

/** What the server's thread offers the agents' thread. */
export interface ServerFunctions {
  [name: string]: (...args: never[]) => unknown;
  models(): Promise<string[]>;
  provisionerToken(model: string): Promise<{ machine: string; token: string }>;
  /** The agents' log lines, in order: each turn's come together (agents-worker.ts). */
  log(lines: readonly string[]): void;
}

/** What the agents' thread offers (agents-worker.ts): starting and stopping them, and the admin's handle on their cloud. */
export interface AgentsFunctions {
  [name: string]: (...args: never[]) => unknown;
  start(options: AgentsStart): Promise<void>;
  stop(): Promise<void>;
  describe(): DummyDescription;
  failNextStarts(count: number, message?: string): void;
  refuseConstraints(text: string | null): void;
  loseInstance(id: string): Instance;
}

export interface AgentsThread {
  /** The agents' dummy cloud, for the admin's cloud API. */
  cloud: CloudControl;
  /** Stops every agent, then the thread. */
  stop(): Promise<void>;
}

/** The worker's module, loaded through tsx as the server is (a worker does not inherit its loader). */
const bootstrap = (module: URL) =>
  `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module.href)}); })`;

/** Starts the agents on a thread of their own; resolves once they run, rejects (the thread gone) if they cannot start. */
export async function startAgentsThread(
  options: AgentsStart,
  server: ServerFunctions,
  /** Called once if the thread dies while the agents run (not on stop, nor on a failed start). */
  ended: (reason: string) => void = () => {},
): Promise<AgentsThread> {
  const worker = new Worker(bootstrap(new URL("./agents-worker.ts", import.meta.url)), { eval: true });
  const agents = new ThreadCalls<AgentsFunctions>(worker, server);
  let stopped = false;
  let running = false;
  worker.on("error", (error) => {
    agents.close(error);
    server.log([`agents' thread failed: ${error.stack ?? String(error)}`]);
  });
  worker.on("exit", (code) => {
    agents.close(new Error(`the agents' thread exited (${code})`));
    if (running && !stopped) ended(`their thread exited with code ${code}`);
  });
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await agents.call("stop").catch(() => {});
    await worker.terminate();
  };
  try {
    await agents.call("start", options);
    running = true;
  } catch (error) {
    await stop();
    // The cloud file's own refusal keeps its kind: npm start says it plainly.
    throw (error as Error).name === "DummyStateError"
      ? Object.assign(new DummyStateError("", ""), { message: (error as Error).message })
      : error;
  }
  return {
    cloud: {
      describe: () => agents.call("describe"),
      failNextStarts: (count, message) => agents.call("failNextStarts", count, message),
      refuseConstraints: (text) => agents.call("refuseConstraints", text),
      loseInstance: (id) => agents.call("loseInstance", id),
    },
    stop,
  };
}
