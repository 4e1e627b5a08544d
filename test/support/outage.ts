// What tests of a bad day drive a running `npm start` process with: writers that each
// write 0, 1, 2… into one application's config and keep every answer, and a change
// stream that is resumed with `since` whenever the server ends it. The checks on them
// (nothing acknowledged lost, each change seen once) are the specs' own.
import { join } from "node:path";
import { expect } from "vitest";
import { type LifelineProcess, startLifeline } from "./lifeline-process.js";
import { CHANGES, post, type StreamEvent, type Subscription, subscribe } from "./streams.js";

export interface Attempt {
  value: number;
  outcome: "ok" | { code: string; retryable: unknown; committed: unknown };
}

/** Writes 0, 1, 2… into one application's config, one request at a time, until stopped; keeps each answer. */
export class Writer {
  readonly attempts: Attempt[] = [];
  private stopped = false;
  readonly done: Promise<void>;

  constructor(
    private readonly url: string,
    readonly application: string,
  ) {
    this.done = this.run();
  }

  get acknowledged(): number {
    return this.attempts.filter((a) => a.outcome === "ok").length;
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.done;
  }

  private async run(): Promise<void> {
    for (let value = 0; !this.stopped; value++) {
      const result = await post(
        this.url,
        `mutation ($app: String!, $v: String!) { setApplicationConfig(input: { application: $app, values: [{ key: "fail-hook", value: $v }] }) { name } }`,
        { app: this.application, v: `value-${value}` },
      ).catch((error: Error) => ({ errors: [{ extensions: { code: `no answer: ${error.message}` } }] }));
      const error = result.errors?.[0];
      this.attempts.push({
        value,
        outcome: error
          ? { code: error.extensions?.code, retryable: error.extensions?.retryable, committed: error.extensions?.committed }
          : "ok",
      });
      if (error) await new Promise((resolve) => setTimeout(resolve, 20)); // a client's retry pause, not a wait for anything
    }
  }
}

/** A `changes` stream that, when the server ends it with an error, subscribes again from the last revision it saw. */
export class ResumingStream {
  readonly events: StreamEvent[] = [];
  readonly failures: unknown[] = [];
  private current: Subscription;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly model: string,
  ) {
    this.current = this.open(null);
  }

  /** Resolves once its snapshot has ended (its first BOOKMARK): writes after that reach it as changes. */
  async synced(): Promise<void> {
    await expect.poll(() => this.events.some((e) => e.type === "BOOKMARK"), { timeout: 10_000 }).toBe(true);
  }

  /** Where it stands: the last CHANGE or BOOKMARK (a snapshot's STATE events all carry the snapshot's revision). */
  get revision(): number {
    return Number([...this.events].reverse().find((e) => e.type !== "STATE")?.revision ?? 0);
  }

  private open(since: string | null): Subscription {
    const subscription = subscribe(this.url, CHANGES, { model: this.model, kinds: ["APPLICATION"], since });
    let taken = 0;
    const take = () => {
      for (; taken < subscription.events.length; taken++) this.events.push(subscription.events[taken]!);
      if ((subscription.errors || subscription.completed) && !this.closed && this.current === subscription) {
        this.failures.push(subscription.errors);
        this.current = this.open(String(this.revision));
      }
    };
    const watching = () => {
      take();
      return this.closed;
    };
    void subscription.until(watching, 600_000).catch(() => {});
    return subscription;
  }

  close(): Promise<void> {
    this.closed = true;
    return this.current.close();
  }
}

/** Every refusal the writers met was an outage's, said so, and retryable; the server masked nothing as internal. */
export function expectOutageRefusals(server: LifelineProcess, writers: readonly Writer[]): void {
  const refusals = writers.flatMap((w) => w.attempts.map((a) => a.outcome).filter((o) => o !== "ok"));
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
  await expect.poll(() => stream.revision, { timeout: 10_000 }).toBeGreaterThanOrEqual(Number(found.model.revision));
  const changes = stream.events.filter((e) => e.type === "CHANGE").map((e) => Number(e.revision));
  expect(new Set(changes).size, "no change delivered twice").toBe(changes.length);
  expect(changes).toEqual([...changes].sort((a, b) => a - b));
  for (const writer of writers) {
    const seen = stream.events.filter((e) => e.entity === writer.application).map((e) => e.fields?.config?.["fail-hook"]);
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
