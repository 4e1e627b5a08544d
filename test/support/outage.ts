// What tests of a bad day drive a running `npm start` process with: writers that each
// write 0, 1, 2… into one application's config and keep every answer, a reader of the
// model's status, and a change stream that is resumed with `since` whenever the server
// ends it. The checks on them
// (nothing acknowledged lost, each change seen once) are the specs' own.
import { join } from "node:path";
import { type Client, createClient } from "graphql-ws";
import { expect } from "vitest";
import WebSocket from "ws";
import { type LifelineProcess, startLifeline } from "./lifeline-process.js";
import { adminHeaders } from "./store.js";
import { CHANGES, post, type StreamEvent } from "./streams.js";
import { scaled } from "./time-scale.js";

export interface Attempt {
  value: number;
  outcome: "ok" | { code: string; retryable: unknown; committed: unknown };
  /** Date.now() when it was sent and when its answer came. */
  sentAt: number;
  answeredAt: number;
}

/** One request at a time, until stopped; keeps each answer's outcome (`value` counts the requests). */
abstract class RequestLoop {
  readonly attempts: Attempt[] = [];
  private stopped = false;
  /** Started once the subclass is constructed (a promise job later), so `request` sees its fields. */
  readonly done: Promise<void> = Promise.resolve().then(() => this.run());

  /** The answers that were not refusals. */
  get acknowledged(): number {
    return this.attempts.filter((a) => a.outcome === "ok").length;
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.done;
  }

  /** Sends request number `value`; its outcome. */
  protected abstract request(value: number): Promise<Attempt["outcome"]>;

  private async run(): Promise<void> {
    for (let value = 0; !this.stopped; value++) {
      const sentAt = Date.now();
      const outcome = await this.request(value);
      this.attempts.push({ value, outcome, sentAt, answeredAt: Date.now() });
      if (outcome !== "ok") await new Promise((resolve) => setTimeout(resolve, 20)); // a client's retry pause, not a wait for anything
    }
  }
}

const noAnswer = (error: Error) => ({ errors: [{ extensions: { code: `no answer: ${error.message}` } }] });

/** Writes 0, 1, 2… into one application's config; keeps each answer. */
export class Writer extends RequestLoop {
  constructor(
    private readonly url: string,
    readonly application: string,
  ) {
    super();
  }

  protected async request(value: number): Promise<Attempt["outcome"]> {
    const result = await post(
      this.url,
      `mutation ($app: String!, $v: String!) { setApplicationConfig(input: { application: $app, values: [{ key: "fail-hook", value: $v }] }) { name } }`,
      { app: this.application, v: `value-${value}` },
    ).catch(noAnswer);
    const error = result.errors?.[0];
    return error ? { code: error.extensions?.code, retryable: error.extensions?.retryable, committed: error.extensions?.committed } : "ok";
  }
}

/**
 * Asks for the model's status. Each query reads one moment on a connection of its own (src/db/one-moment.ts), which an
 * outage can take from under it mid-read: every error in an answer must then be the outage's.
 */
export class StatusReader extends RequestLoop {
  constructor(private readonly url: string) {
    super();
  }

  protected async request(): Promise<Attempt["outcome"]> {
    const STATUS = `{ model(name: "default") { revision
      applications { edges { node { name life unitCount config } } }
      machines { edges { node { id life units { name } } } }
      units { edges { node { name life application { name } machine { id } } } } } }`;
    const result = await post(this.url, STATUS).catch(noAnswer);
    const errors = (result.errors ?? []) as { extensions?: { code?: string; retryable?: unknown } }[];
    // The first error that is not the outage's, if any: one is enough to fail the spec.
    const error = errors.find((e) => e.extensions?.code !== "UNAVAILABLE") ?? errors[0];
    return error ? { code: error.extensions?.code as string, retryable: error.extensions?.retryable, committed: undefined } : "ok";
  }
}

/**
 * A `changes` stream as a careful client holds it: when the server ends it (an error, or complete), it subscribes
 * again with `since` set to the last revision it reached, so it neither misses nor repeats a change. Every error it
 * got is kept.
 */
export class ResumingStream {
  readonly events: StreamEvent[] = [];
  readonly errors: unknown[] = [];
  /** How often it subscribed again. */
  resumes = 0;
  #since: string | null;
  #closed = false;
  readonly #client: Client;
  readonly #waiters = new Set<() => void>();

  /** `kinds`: the entity kinds to watch (all by default); `since`: a revision to resume from (a fresh snapshot by default). */
  constructor(
    url: string,
    readonly model: string,
    readonly options: { kinds?: readonly string[]; since?: string | null } = {},
  ) {
    this.#since = options.since ?? null;
    this.#client = createClient({
      url: url.replace(/^http/, "ws"),
      webSocketImpl: WebSocket,
      connectionParams: adminHeaders,
      retryAttempts: 0,
    });
    this.#subscribe();
  }

  /** Where it stands: the last CHANGE or BOOKMARK it reached (a snapshot's STATE events all carry the snapshot's revision), or -1. */
  get revision(): number {
    return this.#since === null ? -1 : Number(this.#since);
  }

  get changes(): StreamEvent[] {
    return this.events.filter((e) => e.type === "CHANGE");
  }

  /** Resolves once its snapshot has ended (its first BOOKMARK): writes after that reach it as changes. */
  synced(): Promise<void> {
    return this.until(() => this.events.some((e) => e.type === "BOOKMARK"), "the snapshot");
  }

  /** Resolves once `done()` holds, checked on every event; fails at the deadline (`timeoutMs`, scaled) with the last events. */
  until(done: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`deadline passed waiting for ${what}; last events ${JSON.stringify(this.events.slice(-5))}`));
      }, scaled(timeoutMs));
      this.#waiters.add(check);
      check();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#client.dispose();
  }

  #subscribe(): void {
    this.#client.subscribe<{ changes: StreamEvent }>(
      { query: CHANGES, variables: { model: this.model, kinds: this.options.kinds ?? null, since: this.#since } },
      {
        next: (result) => {
          if (result.errors) this.errors.push(...result.errors);
          else {
            const event = result.data!.changes;
            this.events.push(event);
            if (event.type !== "STATE" && (this.#since === null || Number(event.revision) > Number(this.#since)))
              this.#since = event.revision;
          }
          this.#notify();
        },
        error: (error) => {
          this.errors.push(...(Array.isArray(error) ? error : [error]));
          this.#resume();
        },
        complete: () => this.#resume(),
      },
    );
  }

  #resume(): void {
    this.#notify();
    if (this.#closed) return;
    this.resumes++;
    // A stream refused while the database is out of reach is asked for again until it is served.
    setTimeout(() => this.#subscribe(), 100).unref();
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}

/** Every refusal the writers (and readers) met was an outage's, said so, and retryable; the server masked nothing as internal. */
export function expectOutageRefusals(server: LifelineProcess, clients: readonly { attempts: readonly Attempt[] }[]): void {
  const refusals = clients.flatMap((w) => w.attempts.map((a) => a.outcome).filter((o) => o !== "ok"));
  for (const refusal of refusals) expect(refusal).toMatchObject({ code: "UNAVAILABLE", retryable: true });
  expect(server.output()).not.toMatch(/INTERNAL_SERVER_ERROR|Unexpected error/);
}

/**
 * Nothing acknowledged is lost, and a refusal that did not say `committed: "unknown"` changed nothing: each
 * application's value is its writer's last acknowledged one, or one written after it whose answer was in doubt.
 */
export async function expectWritesKept(server: LifelineProcess, writers: readonly Writer[], model = "default"): Promise<void> {
  const CONFIG = `query ($model: String!, $app: String!) { model(name: $model) { application(name: $app) { config } } }`;
  for (const writer of writers) {
    const found = await server.ok(CONFIG, { model, app: writer.application });
    const value = Number(String(found.model.application.config["fail-hook"]).replace("value-", ""));
    const lastAcknowledged = Math.max(...writer.attempts.filter((a) => a.outcome === "ok").map((a) => a.value));
    if (value === lastAcknowledged) continue;
    const after = writer.attempts.filter((a) => a.value > lastAcknowledged);
    expect(
      after.map((a) => a.value),
      `${writer.application}: its value was attempted after the last acknowledged`,
    ).toContain(value);
    expect(after.find((a) => a.value === value)!.outcome).toMatchObject({ committed: "unknown" });
  }
}

/**
 * The stream, resumed with `since` whenever the server ended it, reached the model's revision and saw each change
 * once, in order: every acknowledged value, and no value whose refusal said nothing changed.
 */
export async function expectEachChangeOnce(
  server: LifelineProcess,
  stream: ResumingStream,
  writers: readonly Writer[],
  model = "default",
): Promise<void> {
  const found = await server.ok(`query ($model: String!) { model(name: $model) { revision } }`, { model });
  await expect.poll(() => stream.revision, { timeout: scaled(10_000) }).toBeGreaterThanOrEqual(Number(found.model.revision));
  const changes = stream.events.filter((e) => e.type === "CHANGE").map((e) => Number(e.revision));
  expect(new Set(changes).size, "no change delivered twice").toBe(changes.length);
  expect(changes).toEqual([...changes].sort((a, b) => a - b));
  for (const writer of writers) {
    const seen = stream.events.filter((e) => e.entity === writer.application).map((e) => e.application?.config?.["fail-hook"]);
    for (const attempt of writer.attempts) {
      if (attempt.outcome === "ok")
        expect(seen, `${writer.application}: acknowledged value-${attempt.value} on the stream`).toContain(`value-${attempt.value}`);
      else if (attempt.outcome.committed !== "unknown") expect(seen).not.toContain(`value-${attempt.value}`);
    }
  }
}

/** `npm start` with its agents on `databaseUrl`, quick to elect them again, and `applications` deployed (no units). */
export async function startWithApplications(databaseUrl: string, cloudDir: string, applications: readonly string[]) {
  const server = startLifeline({
    DATABASE_URL: databaseUrl,
    LIFELINE_AGENTS: "1",
    LIFELINE_AGENTS_ELECTION_MS: "200",
    LIFELINE_CLOUD_FILE: join(cloudDir, "cloud.json"),
  });
  const api = await server.ready();
  for (const charm of applications)
    await server.ok(`mutation ($charm: String!) { deploy(input: { charm: $charm, numUnits: 0 }) { name } }`, { charm });
  return { server, api };
}

/** Kills the process if it still runs. One that ended by itself is the failure to explain: what it printed is shown. */
export async function endProcess(server: LifelineProcess | undefined): Promise<void> {
  if (!server) return;
  const { exitCode, signalCode } = server.child;
  if (exitCode !== null || signalCode !== null) console.error(`the server exited (${exitCode ?? signalCode}):\n${server.output()}`);
  else {
    // Alive but not answering is as much to explain.
    const answering = await post(await server.ready(), "{ __typename }").then(
      () => true,
      () => false,
    );
    if (!answering) console.error(`the server runs but does not answer:\n${server.output()}`);
    server.child.kill("SIGKILL");
  }
  await server.exited;
}
