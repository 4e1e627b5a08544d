// A reader beside a request under test: a small read every few milliseconds over one
// HTTP keep-alive socket, each answer's wait recorded. It runs on a worker thread of
// its own, so the side sending the request under test (building, writing and reading
// megabytes) never delays its clock: what it measures is the server's doing.
import { Worker } from "node:worker_threads";
import { summary } from "./stats.js";

/** The worker, as plain JavaScript (a worker evaluated from a string needs no loader). */
const READER = `
const { parentPort, workerData } = require("node:worker_threads");
const http = require("node:http");
const url = new URL(workerData.url);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const body = JSON.stringify({ query: workerData.query, variables: workerData.variables });
const headers = {
  "content-type": "application/json",
  accept: "application/json",
  authorization: "Bearer " + workerData.token,
  "content-length": Buffer.byteLength(body),
};
let running = false;
let waits = [];
let failures = 0;
let done = Promise.resolve();
const once = () =>
  new Promise((resolve) => {
    const started = performance.now();
    const req = http.request(url, { method: "POST", agent, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode === 200 ? performance.now() - started : -1));
    });
    req.setTimeout(30000, () => req.destroy());
    req.on("error", () => resolve(-1));
    req.end(body);
  });
async function loop() {
  while (running) {
    const started = performance.now();
    const wait = await once();
    if (wait < 0) failures++;
    else waits.push(wait);
    const rest = workerData.intervalMs - (performance.now() - started);
    if (rest > 0) await new Promise((r) => setTimeout(r, rest));
  }
}
parentPort.on("message", async (message) => {
  if (message === "start") {
    waits = [];
    failures = 0;
    running = true;
    done = loop();
    parentPort.postMessage({ started: true });
  } else if (message === "stop") {
    running = false;
    await done;
    parentPort.postMessage({ waits, failures });
  } else if (message === "exit") {
    agent.destroy();
    process.exit(0);
  }
});
`;

export interface ReaderWaits {
  count: number;
  p50: number;
  p99: number;
  max: number;
  /** Reads that failed (no 200): a server that stops answering shows here. */
  failures: number;
}

export class Reader {
  private readonly worker: Worker;
  private pending: ((value: unknown) => void) | null = null;

  constructor(url: string, token: string, query: string, variables: Record<string, unknown>, intervalMs = 5) {
    this.worker = new Worker(READER, { eval: true, workerData: { url, token, query, variables, intervalMs } });
    this.worker.on("message", (message) => {
      const resolve = this.pending;
      this.pending = null;
      resolve?.(message);
    });
  }

  private ask(message: string): Promise<unknown> {
    return new Promise((resolve) => {
      this.pending = resolve;
      this.worker.postMessage(message);
    });
  }

  start(): Promise<unknown> {
    return this.ask("start");
  }

  /** Stops reading; the waits since start. */
  async stop(): Promise<ReaderWaits> {
    const { waits, failures } = (await this.ask("stop")) as { waits: number[]; failures: number };
    return { ...summary(waits), failures };
  }

  /** Reads for `ms` with nothing else running: the baseline. */
  async alone(ms: number): Promise<ReaderWaits> {
    await this.start();
    await new Promise((r) => setTimeout(r, ms));
    return this.stop();
  }

  async close(): Promise<void> {
    this.worker.postMessage("exit");
    await new Promise((resolve) => this.worker.once("exit", resolve));
  }
}
