// /healthz and /readyz, as Kubernetes probes them: alive is "the process answers"; ready is "send it traffic": the
// store answers, has every migration this source ships, and the change feed is keeping up with the log.
import type { ServerResponse } from "node:http";
import { sql } from "drizzle-orm";
import type { ChangeFeed } from "../changes/feed.js";
import type { Store } from "../db/connect.js";
import { migrationState } from "../db/migration-state.js";

/** A store that has not answered `select 1` within this is not ready. */
const STORE_TIMEOUT_MS = 2000;
/** The feed is behind when its newest read row was committed longer ago than this when read. */
const MAX_FEED_LAG_MS = 10_000;

interface Check {
  ok: boolean;
  detail?: string;
}

export class Readiness {
  constructor(
    private readonly store: Store,
    private readonly feed: ChangeFeed,
  ) {}

  async checks(): Promise<Record<"store" | "migrations" | "feed", Check>> {
    const store = await withTimeout(this.store.db.execute(sql`select 1`), STORE_TIMEOUT_MS).then(
      () => ({ ok: true }),
      (error: Error) => ({ ok: false, detail: error.message }),
    );
    const migrations = store.ok
      ? await migrationState(this.store.db).then(
          (state) => (state.applied ? { ok: true } : { ok: false, detail: `the database lacks migration ${state.expected}` }),
          (error: Error) => ({ ok: false, detail: error.message }),
        )
      : { ok: false, detail: "the store does not answer" };
    const feed = store.ok
      ? await this.feed.behind(MAX_FEED_LAG_MS).then(
          (late) =>
            late.length
              ? { ok: false, detail: `behind the log by over ${MAX_FEED_LAG_MS / 1000} s on ${late.length} model(s)` }
              : { ok: true },
          (error: Error) => ({ ok: false, detail: error.message }),
        )
      : { ok: false, detail: "the store does not answer" };
    return { store, migrations, feed };
  }
}

export function answerHealthz(res: ServerResponse): void {
  json(res, 200, { status: "alive" });
}

export async function answerReadyz(readiness: Readiness, res: ServerResponse): Promise<void> {
  const checks = await readiness.checks();
  const ready = Object.values(checks).every((c) => c.ok);
  json(res, ready ? 200 : 503, { status: ready ? "ready" : "not ready", checks });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
