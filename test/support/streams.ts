// Change streams as clients meet them: a real server on a loopback port, graphql-ws
// over a real socket, SSE over real HTTP. Waiting is always for an event, with a
// deadline; never a sleep.
import { type Client, createClient } from "graphql-ws";
import { afterAll, beforeAll } from "vitest";
import WebSocket from "ws";
import type { FeedOptions } from "../../src/changes/feed.js";
import type { Store } from "../../src/db/connect.js";
import { type RunningServer, type ServerOptions, startServer } from "../../src/server/app.js";
import { adminHeaders, openTestStore, uniqueName } from "./store.js";
import { scaled } from "./time-scale.js";

/**
 * graphql-ws's `terminate` on a socket still connecting closes it and stops listening to it; ws then reports the
 * aborted handshake as an `error` event, which with no listener left is an uncaught exception. A dropped client has
 * no use for its socket's errors.
 */
class DroppableWebSocket extends WebSocket {
  constructor(...args: ConstructorParameters<typeof WebSocket>) {
    super(...args);
    this.on("error", () => {});
  }
}

/** A stream event as the specs select it: the envelope, and the entity in the field of its kind's name (docs/streams.md). */
export interface StreamEvent {
  type: "STATE" | "CHANGE" | "BOOKMARK";
  revision: string;
  kind: string | null;
  entity: string | null;
  life: string | null;
  removed: boolean;
  changed: string[];
  model: Record<string, any> | null;
  machine: Record<string, any> | null;
  charm: Record<string, any> | null;
  application: Record<string, any> | null;
  unit: Record<string, any> | null;
  relation: Record<string, any> | null;
  scope: Record<string, any> | null;
  settings: Record<string, any> | null;
  hook: Record<string, any> | null;
  cleanup: Record<string, any> | null;
}

/** The event's entity, whatever its kind (null for bookmarks). */
export const entityOf = (e: StreamEvent) =>
  e.model ?? e.machine ?? e.charm ?? e.application ?? e.unit ?? e.relation ?? e.scope ?? e.settings ?? e.hook ?? e.cleanup;

/** Every field of every kind's entity, as a typed client watching everything selects them. */
export const EVENT_FIELDS = `type revision kind entity life removed changed
  model { name defaultSeries automaticallyRetryHooks constraints { text } }
  machine { id series jobs parentId containerType instanceId agentLostSince constraints { text } status { current message } }
  charm { url name revision subordinate series }
  application { name charmUrl series subordinate unitCount relationCount configVersion config }
  unit { name applicationName series machineId principalName subordinate resolved agentLostSince
    workloadStatus { current message } agentStatus { current message hook relation remoteUnit } }
  relation { id key scope interface unitCount endpoints { applicationName name } }
  scope { relationId unitName applicationName role container }
  settings { relationId unitName version }
  hook { id unitName applicationName hook relation remoteUnit result message startedAt endedAt logged { level message loggedAt } }
  cleanup { id kind target dueAt }`;

export interface LiveServer {
  store: Store;
  running: RunningServer;
  url: string;
  post<T = any>(query: string, variables?: Record<string, unknown>): Promise<{ data?: T; errors?: any[] }>;
  ok<T = any>(query: string, variables?: Record<string, unknown>): Promise<T>;
  newModel(): Promise<{ name: string; id: string }>;
}

/** One server per test file, on the test store, with a fast feed for tests. */
export function useLiveServer(feed: Partial<FeedOptions> = {}, options: Omit<ServerOptions, "feed"> = {}): LiveServer {
  const live = {} as LiveServer;
  beforeAll(async () => {
    live.store = await openTestStore();
    live.running = await startServer(live.store, "127.0.0.1", 0, { feed: { pollIntervalMs: 250, ...feed }, ...options });
    live.url = live.running.url;
  });
  afterAll(async () => {
    await live.running?.close();
    await live.store?.close();
  });
  live.post = (query, variables) => post(live.url, query, variables);
  live.ok = async (query, variables) => {
    const result = await live.post(query, variables);
    if (result.errors) throw new Error(JSON.stringify(result.errors));
    return result.data!;
  };
  live.newModel = async () => {
    const name = uniqueName();
    const data = await live.ok(`mutation ($name: String!) { addModel(input: { name: $name }) { name uuid } }`, { name });
    return { name, id: data.addModel.uuid };
  };
  return live;
}

export async function post(url: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...adminHeaders },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: any; errors?: any[] };
}

/** A subscription held over its own graphql-ws connection, recording what arrives. */
export class Subscription {
  readonly events: StreamEvent[] = [];
  errors: any[] | null = null;
  completed = false;
  private readonly client: Client;
  private waiters = new Set<() => void>();

  constructor(url: string, query: string, variables: Record<string, unknown>) {
    this.client = createClient({
      url: url.replace(/^http/, "ws"),
      webSocketImpl: DroppableWebSocket,
      retryAttempts: 0,
      lazy: true,
      connectionParams: adminHeaders,
    });
    this.client.subscribe<any>(
      { query, variables },
      {
        next: (result) => {
          if (result.errors) this.errors = result.errors as any[];
          else this.events.push(Object.values(result.data!)[0] as StreamEvent);
          this.notify();
        },
        error: (error) => {
          this.errors = Array.isArray(error) ? error : [error];
          this.notify();
        },
        complete: () => {
          this.completed = true;
          this.notify();
        },
      },
    );
  }

  /** The CHANGE events so far. */
  get changes(): StreamEvent[] {
    return this.events.filter((e) => e.type === "CHANGE");
  }

  /** Resolves once `done()` holds, re-checked on every message; fails at the deadline (`timeoutMs`, scaled) with what arrived. */
  until(done: (s: this) => boolean, timeoutMs = 15_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (done(this)) {
          clearTimeout(timer);
          this.waiters.delete(check);
          resolve();
        }
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`deadline passed; received ${JSON.stringify({ events: this.events.slice(-20), errors: this.errors })}`));
      }, scaled(timeoutMs));
      this.waiters.add(check);
      check();
    });
  }

  /** Waits for the first BOOKMARK (the end of the snapshot, or of nothing, on a resume). */
  synced(): Promise<void> {
    return this.until((s) => s.events.some((e) => e.type === "BOOKMARK") || s.errors !== null);
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }

  /** Drops the socket abruptly, as a network failure would: no complete, no close handshake. */
  drop(): void {
    this.client.terminate();
  }

  private notify() {
    for (const waiter of [...this.waiters]) waiter();
  }
}

const opened: Subscription[] = [];
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

export function subscribe(url: string, query: string, variables: Record<string, unknown> = {}): Subscription {
  const subscription = new Subscription(url, query, variables);
  opened.push(subscription);
  return subscription;
}

export const CHANGES = `subscription ($model: String!, $kinds: [EntityKind!], $entities: [String!], $life: [Life!], $since: String) {
  changes(model: $model, kinds: $kinds, entities: $entities, life: $life, since: $since) { ${EVENT_FIELDS} }
}`;
