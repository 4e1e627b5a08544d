// The agents' thread (src/server/agents-thread.ts starts it): the dummy cloud and the
// controller with every agent it runs, on an event loop and a heap of their own. They
// reach the API over its socket, as from another process; what they need of the server
// itself (the models to run agents for, machine 0's credentials) and its log come
// through the thread's calls, as does the admin's cloud API.
import { parentPort } from "node:worker_threads";
import { Controller } from "../agents/controller.js";
import { DummyProvider } from "../provider/dummy.js";
import type { AgentsFunctions, AgentsStart, ServerFunctions } from "./agents-thread.js";
import { ThreadCalls } from "./thread-calls.js";

if (!parentPort) throw new Error("agents-worker.ts runs as a worker thread: see agents-thread.ts");

let running: { provider: DummyProvider; controller: Controller } | null = null;

/** The dummy cloud, while the agents run. */
const cloud = () => {
  if (!running) throw new Error("the agents are not running");
  return running.provider;
};

/**
 * The agents' log lines go to the API's thread, which writes the process's log, a turn's together in one message that
 * wants no answer: thousands of agents log a few lines each as they settle, and a call a line was two messages, a
 * promise and an answer each.
 */
const lines: string[] = [];
function logLine(line: string): void {
  if (!lines.length) setImmediate(() => server.tell("log", lines.splice(0)));
  lines.push(line);
}

const server: ThreadCalls<ServerFunctions> = new ThreadCalls<ServerFunctions>(parentPort, {
  async start(options: AgentsStart) {
    const provider = new DummyProvider(options.cloudFile ? { stateFile: options.cloudFile } : {});
    const controller = new Controller({
      url: options.url,
      provider,
      models: () => server.call("models"),
      provisionerToken: (model) => server.call("provisionerToken", model),
      startAttempts: options.startAttempts,
      retryDelayMs: options.retryDelayMs,
      cloudPollMs: options.cloudPollMs,
      log: (line) => logLine(line),
    });
    running = { provider, controller };
    try {
      await controller.start();
    } catch (error) {
      await stop();
      throw error;
    }
  },
  stop,
  describe: () => cloud().describe(),
  failNextStarts: (count: number, message?: string) => cloud().failNextStarts(count, message),
  refuseConstraints: (text: string | null) => cloud().refuseConstraints(text),
  loseInstance: (id: string) => cloud().loseInstance(id),
} satisfies AgentsFunctions);

async function stop(): Promise<void> {
  const stopping = running;
  running = null;
  if (!stopping) return;
  await stopping.controller.stop();
  // Whatever is still in flight must not write a file the next leader's cloud now owns.
  stopping.provider.close();
}
