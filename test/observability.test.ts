// Issue 36: "/healthz (alive) and /readyz (store reachable, migrations applied, feed caught up)", and "/metrics in
// Prometheus' text format … behind a token or a separate listen address". A real server on a real port.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, type Store } from "../src/db/connect.js";
import { type RunningServer, startServer } from "../src/server/app.js";
import { adminHeaders, openPrivateTestStore, uniqueName } from "./support/store.js";
import { CHANGES, post, type Subscription, subscribe } from "./support/streams.js";

let store: Store;
let server: RunningServer;
beforeAll(async () => {
  store = await openPrivateTestStore();
  server = await startServer(store, "127.0.0.1", 0, { feed: { pollIntervalMs: 250 } });
});
afterAll(async () => {
  await server?.close();
  await store?.close();
});

const at = (path: string) => new URL(path, server.url).href;

/** One sample's value from the text format, by its name and labels as written (`name{a="b"}`); 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

async function scrape(): Promise<string> {
  const response = await fetch(server.metricsUrl, { headers: adminHeaders });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain; version=0.0.4");
  return response.text();
}

describe("health", () => {
  it("/healthz answers 200 alive, with no token", async () => {
    const response = await fetch(at("/healthz"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "alive" });
  });

  it("/readyz answers 200 when the store answers, has every migration and the feed keeps up", async () => {
    const response = await fetch(at("/readyz"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: "ready",
      checks: { store: { ok: true }, migrations: { ok: true }, feed: { ok: true } },
    });
  });

  it("/readyz answers 503 naming the migration a database lacks", async () => {
    const [row] = rowsOf<{ hash: string; created_at: string }>(
      await store.db.execute(
        sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations) returning hash, created_at`,
      ),
    );
    try {
      const response = await fetch(at("/readyz"));
      expect(response.status).toBe(503);
      const body = await response.json();
      expect(body.status).toBe("not ready");
      expect(body.checks.migrations).toEqual({ ok: false, detail: expect.stringMatching(/^the database lacks migration \d{4}_\w+$/) });
      expect(body.checks.store).toEqual({ ok: true });
    } finally {
      if (row)
        await store.db.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${row.hash}, ${row.created_at})`);
    }
  });
});

describe("/metrics on the API's port", () => {
  it("refuses a request without a token: 401 UNAUTHENTICATED", async () => {
    const response = await fetch(server.metricsUrl);
    expect(response.status).toBe(401);
    expect((await response.json()).errors[0].extensions.code).toBe("UNAUTHENTICATED");
  });

  it("refuses a token that is not an admin's: 403 FORBIDDEN", async () => {
    const { data } = await post(server.url, `mutation ($input: IssueTokenInput!) { issueToken(input: $input) { token } }`, {
      input: { role: "READ_ONLY", description: "metrics reader" },
    });
    const response = await fetch(server.metricsUrl, { headers: { authorization: `Bearer ${data.issueToken.token}` } });
    expect(response.status).toBe(403);
    expect((await response.json()).errors[0].extensions.code).toBe("FORBIDDEN");
  });

  it("counts mutations by name and outcome, with their latency", async () => {
    const ok = 'lifeline_mutations_total{mutation="addModel",outcome="ok"}';
    const refused = 'lifeline_mutations_total{mutation="addModel",outcome="ALREADY_EXISTS"}';
    const timed = 'lifeline_mutation_duration_seconds_count{mutation="addModel"}';
    const before = await scrape();
    const name = uniqueName();
    const add = `mutation ($name: String!) { addModel(input: { name: $name }) { name } }`;
    expect((await post(server.url, add, { name })).errors).toBeUndefined();
    expect((await post(server.url, add, { name })).errors?.[0].extensions.code).toBe("ALREADY_EXISTS");
    const after = await scrape();
    expect(sample(after, ok) - sample(before, ok)).toBe(1);
    expect(sample(after, refused) - sample(before, refused)).toBe(1);
    expect(sample(after, timed) - sample(before, timed)).toBe(2);
  });

  it("gauges open subscriptions and counts what they are delivered", async () => {
    const model = uniqueName();
    await post(server.url, `mutation ($name: String!) { addModel(input: { name: $name }) { name } }`, { name: model });
    const before = await scrape();
    const stream: Subscription = subscribe(server.url, CHANGES, { model });
    try {
      await stream.synced();
      const during = await scrape();
      expect(sample(during, "lifeline_subscriptions_open")).toBe(sample(before, "lifeline_subscriptions_open") + 1);
      expect(sample(during, "lifeline_stream_deliveries_total")).toBeGreaterThanOrEqual(
        sample(before, "lifeline_stream_deliveries_total") + stream.events.length,
      );
    } finally {
      await stream.close();
    }
  });

  it("reports the cleanup queue, lost agents, the pool and the process", async () => {
    const text = await scrape();
    for (const series of [
      'lifeline_cleanups_queued{due="true"}',
      'lifeline_agents_lost{kind="unit"}',
      'lifeline_agents_lost{kind="machine"}',
      'lifeline_database_connections{state="max"}',
      'lifeline_database_connections{state="open"}',
      "lifeline_agents_connected",
      "lifeline_websocket_connections",
      "process_cpu_seconds_total",
    ])
      expect(text, series).toMatch(new RegExp(`^${series.replace(/[{}"]/g, "\\$&")} \\d`, "m"));
    expect(sample(text, 'lifeline_database_connections{state="max"}')).toBeGreaterThanOrEqual(1);
  });
});

describe("/metrics on an address of its own (LIFELINE_METRICS_LISTEN)", () => {
  let own: RunningServer;
  beforeAll(async () => {
    own = await startServer(store, "127.0.0.1", 0, { metricsListen: { host: "127.0.0.1", port: 0 } });
  });
  afterAll(() => own?.close());

  it("serves /metrics there with no token, and not on the API's port", async () => {
    expect(new URL(own.metricsUrl).port).not.toBe(new URL(own.url).port);
    const response = await fetch(own.metricsUrl);
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^# HELP lifeline_mutations_total /m);
    expect((await fetch(new URL("/metrics", own.url), { headers: adminHeaders })).status).toBe(404);
  });
});
