// /metrics: what the controller is doing, in Prometheus' text format (prom-client), on a registry of the server's own.
// Counters and histograms are kept as things happen (mutations, the feed's reads); everything else is read when
// Prometheus scrapes (streams open, the cleanup queue, lost agents, the pool), so an idle controller costs nothing.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Plugin } from "graphql-yoga";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { ChangeFeed } from "../changes/feed.js";
import type { Store } from "../db/connect.js";
import type { Context } from "../graphql/context.js";
import { type Actor, controllerGauges } from "../model/index.js";
import { tokenOf } from "./authentication.js";
import { refusalBody } from "./http-status.js";
import type { AgentPresence } from "./presence.js";
import { rootFieldsOf } from "./root-fields.js";

export const METRICS_PATH = "/metrics";

/** Seconds: from a millisecond to the 5 s a mutation may wait for the model's lock. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export interface MetricsSources {
  store: Store;
  feed: ChangeFeed;
  presence?: AgentPresence;
  /** WebSocket connections open now. */
  sockets: () => number;
}

export class Metrics {
  readonly registry = new Registry();
  private readonly mutations = new Counter({
    name: "lifeline_mutations_total",
    help: "Mutations executed, by root field and outcome (ok, or the refusal's extensions.code)",
    labelNames: ["mutation", "outcome"] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: "lifeline_mutation_duration_seconds",
    help: "Time to execute a mutation (its transaction and retries included), by root field",
    labelNames: ["mutation"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly feedLag = new Histogram({
    name: "lifeline_change_feed_lag_seconds",
    help: "From a change's transaction to the feed reading it from the log (each page of rows read: its newest row)",
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly hookRuns = new Counter({
    name: "lifeline_hook_runs_total",
    help: "Hook runs that ended, by result (succeeded, failed), as the change feed reads them",
    labelNames: ["result"] as const,
    registers: [this.registry],
  });
  private stopReading: () => void = () => {};

  constructor(sources: MetricsSources) {
    collectDefaultMetrics({ register: this.registry });
    const { feed, store, presence, sockets } = sources;
    this.stopReading = feed.onRead((events) => {
      const newest = events[events.length - 1]?.committedAt;
      if (newest) this.feedLag.observe(Math.max(0, (Date.now() - newest.getTime()) / 1000));
      for (const event of events)
        if (event.kind === "hook" && event.fields.endedAt && event.fields.result && event.fields.result !== "running")
          this.hookRuns.inc({ result: event.fields.result });
    });
    const registers = [this.registry];
    new Gauge({
      name: "lifeline_subscriptions_open",
      help: "Change streams open on this process",
      registers,
      collect() {
        this.set(feed.streamCount);
      },
    });
    new Gauge({
      name: "lifeline_websocket_connections",
      help: "graphql-ws sockets open on this process",
      registers,
      collect() {
        this.set(sockets());
      },
    });
    countsOf(
      registers,
      "lifeline_stream_deliveries_total",
      "Events delivered to subscribers (each subscriber's copy)",
      () => feed.counts.delivered,
    );
    countsOf(registers, "lifeline_change_feed_events_read_total", "Rows the change feed read from the log", () => feed.counts.eventsRead);
    new Gauge({
      name: "lifeline_agents_connected",
      help: "Agents connected to this process (a subscription open, or a request within the heartbeat)",
      registers,
      collect() {
        this.set(presence?.held ?? 0);
      },
    });
    // One read of the database for the four, shared by their collect()s within a scrape.
    let reading: ReturnType<typeof controllerGauges> | null = null;
    const gauges = () => {
      reading ??= controllerGauges(store.db).finally(() => setImmediate(() => (reading = null)));
      return reading;
    };
    new Gauge({
      name: "lifeline_cleanups_queued",
      help: "Cleanups in the queue, and of those due now (due=true)",
      labelNames: ["due"] as const,
      registers,
      async collect() {
        const { cleanupsQueued, cleanupsDue } = await gauges();
        this.set({ due: "false" }, cleanupsQueued - cleanupsDue);
        this.set({ due: "true" }, cleanupsDue);
      },
    });
    new Gauge({
      name: "lifeline_agents_lost",
      help: "Agents marked lost (no process has heard from them within the grace), by kind",
      labelNames: ["kind"] as const,
      registers,
      async collect() {
        const { unitAgentsLost, machineAgentsLost } = await gauges();
        this.set({ kind: "unit" }, unitAgentsLost);
        this.set({ kind: "machine" }, machineAgentsLost);
      },
    });
    new Gauge({
      name: "lifeline_database_connections",
      help: "The store's connection pool: its size (state=max), connections open, and busy (in a statement or transaction)",
      labelNames: ["state"] as const,
      registers,
      async collect() {
        const use = await store.connections();
        this.set({ state: "max" }, use.max);
        this.set({ state: "open" }, use.open);
        if (use.busy !== null) this.set({ state: "busy" }, use.busy);
      },
    });
  }

  /** Counts and times mutations, whichever transport runs them. */
  plugin(): Plugin<Context> {
    const { mutations, latency } = this;
    return {
      onExecute({ args }) {
        const root = rootFieldsOf(args.document, args.operationName);
        if (root?.operation !== "mutation") return;
        // The schema's names: a bounded label set (introspection's `__typename` aside).
        const names = root.fields.filter((name) => !name.startsWith("__"));
        if (!names.length) return;
        const started = performance.now();
        return {
          onExecuteDone({ result }) {
            const seconds = (performance.now() - started) / 1000;
            const errors = "errors" in result ? result.errors : undefined;
            const code = errors?.[0]?.extensions?.code;
            const outcome = errors?.length ? (typeof code === "string" ? code : "ERROR") : "ok";
            for (const mutation of names) {
              mutations.inc({ mutation, outcome });
              latency.observe({ mutation }, seconds);
            }
          },
        };
      },
    };
  }

  /** The text Prometheus reads, and its content type. */
  async scrape(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  stop(): void {
    this.stopReading();
  }
}

/** A counter whose value is kept elsewhere (a plain number the feed adds to), read when scraped. */
function countsOf(registers: Registry[], name: string, help: string, value: () => number): void {
  let reported = 0;
  new Counter({
    name,
    help,
    registers,
    collect() {
      const now = value();
      this.inc(Math.max(0, now - reported));
      reported = now;
    },
  });
}

/** GET /metrics on the API's port: for an admin's bearer token only (Prometheus' `authorization` scrape setting). */
export async function answerMetrics(
  metrics: Metrics,
  req: IncomingMessage,
  res: ServerResponse,
  authenticate: (token: string) => Promise<Actor | null>,
): Promise<void> {
  const credentials = tokenOf({ upgradeHeaders: req.headers });
  const actor = credentials && !credentials.cookie ? await authenticate(credentials.token).catch(() => null) : null;
  if (!actor) return refuse(res, 401, "UNAUTHENTICATED", "send an admin's token: Authorization: Bearer <token>");
  if (actor.kind !== "person" || actor.role !== "admin") return refuse(res, 403, "FORBIDDEN", "only an admin's token reads /metrics");
  await answer(metrics, res);
}

/** /metrics on an address of its own, with no token asked (LIFELINE_METRICS_LISTEN): keep it on a private network. */
export async function serveMetrics(metrics: Metrics, { host, port }: { host: string; port: number }): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url?.split("?")[0] === METRICS_PATH) void answer(metrics, res);
    else refuse(res, 404, "NOT_FOUND", `only ${METRICS_PATH} is served here`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

async function answer(metrics: Metrics, res: ServerResponse): Promise<void> {
  try {
    const { body, contentType } = await metrics.scrape();
    res.writeHead(200, { "content-type": contentType, "cache-control": "no-store" });
    res.end(body);
  } catch (error) {
    // A gauge read from the database failed (an outage): say so; the counters kept in memory are in the next scrape.
    refuse(res, 503, "UNAVAILABLE", `metrics could not be read: ${(error as Error).message}`);
  }
}

function refuse(res: ServerResponse, status: number, code: "UNAUTHENTICATED" | "FORBIDDEN" | "NOT_FOUND" | "UNAVAILABLE", message: string) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(refusalBody(code, message));
}
