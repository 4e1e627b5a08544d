// Running highly available: `npm start` on a multi-host DATABASE_URL
// (target_session_attrs=read-write) over a primary and its synchronous streaming
// standby, both servers of the test's own. While a writer adds machines and a
// `changes` stream watches, the primary stops as if the power went and the standby
// is promoted (the operator's or a tool's job, as Patroni's). The process must
// ride it out: requests in between are refused UNAVAILABLE, never as internal
// errors; writes succeed again within seconds; nothing acknowledged is lost; the
// stream, resumed by `since`, sees every change once; the agents are elected again.
//
// The scenario runs once (beforeAll), recording what it saw; each rule below is a
// test of its own over that record. It needs no DATABASE_URL (it runs its own
// servers), so it runs wherever the server binaries are, DATABASE_URL or not: a
// plain `npm test` runs it, and CI runs it in both passes (the same test twice,
// ~15 s each; a rule that needs no knob beats saving those seconds).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LifelineProcess, startLifeline } from "./support/lifeline-process.js";
import { ResumingStream } from "./support/outage.js";
import { type OwnPostgres, ownPostgres, skipNote, startOwnPostgres, startStandby } from "./support/own-postgres.js";
import { adminHeaders } from "./support/store.js";
import { entityOf, type StreamEvent } from "./support/streams.js";
import { scaled } from "./support/time-scale.js";

const own = ownPostgres();
const MODEL = "failover";
const ADD_MACHINE = `mutation ($model: String!) { addMachine(input: { model: $model }) { id } }`;
const RUNS_AGENTS = /agents: this process \(pid \d+\) runs the agents/;
const runsAgents = (output: string) => output.match(new RegExp(RUNS_AGENTS, "g"))?.length ?? 0;

/** One request's outcome, as the client saw it. */
interface Answer {
  at: number;
  ms: number;
  status: number | "no response";
  data?: any;
  errors?: any[];
}

async function request(url: string, query: string, variables: Record<string, unknown> = {}): Promise<Answer> {
  const at = performance.now();
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...adminHeaders },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(scaled(20_000)),
    });
    const body = (await response.json()) as { data?: any; errors?: any[] };
    return { at, ms: performance.now() - at, status: response.status, ...body };
  } catch (error) {
    return { at, ms: performance.now() - at, status: "no response", errors: [{ message: String(error) }] };
  }
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs: number): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (performance.now() > deadline) throw new Error(`deadline passed waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!own.run)(`a failover to a synchronous standby, under writes and a stream${skipNote(own)}`, () => {
  let primary: OwnPostgres;
  let standby: OwnPostgres;
  let lifeline: LifelineProcess;
  const dir = mkdtempSync(join(tmpdir(), "lifeline-failover-"));
  const streams: ResumingStream[] = [];

  const machines = async (): Promise<{ id: string; instanceId: string | null }[]> =>
    (
      await lifeline.ok(`query ($m: String!) { model(name: $m) { machines(first: 1000) { edges { node { id instanceId } } } } }`, {
        m: MODEL,
      })
    ).model.machines.edges.map((e: any) => e.node);

  /** What the scenario saw. */
  const seen = {
    answers: [] as Answer[],
    /** Machines whose addMachine was answered with data. */
    acknowledged: [] as string[],
    stoppedAt: 0,
    promotedAt: 0,
    /** The first write acknowledged after the promotion. */
    writesBackAt: 0,
    /** Output of the process up to the failover. */
    outputBefore: "",
    /** Output of the process while the primary was down and the standby not yet promoted. */
    outputOutage: "",
    /** Machines on the promoted server, read through the API after the failover. */
    machinesAfter: [] as string[],
    stream: null as ResumingStream | null,
    /** The same changes read afresh after the failover, from the stream's first revision. */
    replay: null as ResumingStream | null,
    /** The model's revision once the writer stopped: both streams are compared up to it. */
    revision: 0,
    /** Whether a machine added after the failover got its instance (the re-elected agents' provisioner). */
    provisionedAfter: null as string | null,
  };

  beforeAll(async () => {
    primary = await startOwnPostgres({ replication: true });
    await primary.createDatabase("lifeline");
    standby = await startStandby(primary, { synchronous: true });
    lifeline = startLifeline({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${primary.port},127.0.0.1:${standby.port}/lifeline?target_session_attrs=read-write`,
      LIFELINE_AGENTS: "1",
      LIFELINE_AGENTS_ELECTION_MS: "200",
      LIFELINE_PROVISIONER_POLL_MS: "200",
      LIFELINE_CLOUD_FILE: join(dir, "cloud.json"),
    });
    const url = await lifeline.ready();
    await lifeline.until(RUNS_AGENTS);
    await lifeline.ok(`mutation ($name: String!) { addModel(input: { name: $name }) { name } }`, { name: MODEL });
    // The agents take the model on (its provisioner provisions the writer's machines, writing as well) before the failover.
    await lifeline.until(new RegExp(`provisioner of model ${MODEL} started`));

    const stream = new ResumingStream(url, MODEL);
    streams.push(stream);
    seen.stream = stream;
    await stream.synced();
    const firstRevision = stream.revision;

    // One writer, a write at a time, as long as the scenario lasts.
    let writing = true;
    const writer = (async () => {
      while (writing) {
        const answer = await request(url, ADD_MACHINE, { model: MODEL });
        seen.answers.push(answer);
        if (answer.data?.addMachine) {
          seen.acknowledged.push(answer.data.addMachine.id);
          if (seen.promotedAt && !seen.writesBackAt) seen.writesBackAt = performance.now();
        } else await new Promise((resolve) => setTimeout(resolve, 50)); // a refused write is retried, not hammered
      }
    })();
    const acknowledged = (n: number) => async () => (seen.acknowledged.length >= n ? true : undefined);

    try {
      await until(acknowledged(20), "20 writes before the failover", 20_000);
      seen.outputBefore = lifeline.output();
      const before = seen.answers.length;
      seen.stoppedAt = performance.now();
      await primary.stop("immediate");
      // The standby is promoted once the outage has been seen for a while (20 writes refused: a second or two), as a
      // failover tool takes its time to decide.
      await until(
        async () => (seen.answers.slice(before).filter((a) => a.errors).length >= 20 ? true : undefined),
        "20 writes refused",
        20_000,
      );
      seen.outputOutage = lifeline.output().slice(seen.outputBefore.length);
      seen.promotedAt = performance.now();
      await standby.promote();
      const count = seen.acknowledged.length;
      await until(acknowledged(count + 20), "20 writes after the promotion", 30_000);
    } finally {
      writing = false;
      await writer;
    }

    const { revision } = (await lifeline.ok(`query ($m: String!) { model(name: $m) { revision } }`, { m: MODEL })).model;
    seen.revision = Number(revision);
    await stream.until(() => stream.revision >= Number(revision), `the stream to reach revision ${revision}`);
    // The same span read afresh from the log, as the promoted server holds it.
    const replay = new ResumingStream(url, MODEL, { since: String(firstRevision) });
    streams.push(replay);
    seen.replay = replay;
    await replay.until(() => replay.revision >= Number(revision), `the replay to reach revision ${revision}`);

    seen.machinesAfter = (await machines()).map((m) => m.id);
    const added = (await lifeline.ok(ADD_MACHINE, { model: MODEL })).addMachine.id;
    seen.provisionedAfter = await until(
      async () => (await machines()).find((m) => m.id === added)?.instanceId ?? undefined,
      "the machine added after the failover to be provisioned",
      30_000,
    );
  }, scaled(150_000));

  afterAll(async () => {
    const failed = seen.answers.filter((a) => a.errors).length;
    console.log(
      `failover: ${seen.acknowledged.length} writes acknowledged, ${failed} refused; the primary stopped ${Math.round(seen.promotedAt - seen.stoppedAt)} ms ` +
        `before the promotion began, writes back ${Math.round(seen.writesBackAt - seen.promotedAt)} ms after; the stream resubscribed ${seen.stream?.resumes} times`,
    );
    await Promise.all(streams.map((s) => s.close()));
    if (lifeline && lifeline.child.exitCode === null) {
      lifeline.child.kill("SIGKILL");
      await lifeline.exited;
    }
    await Promise.all([primary?.close(), standby?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("the process stays up through the failover", () => {
    expect(lifeline.child.exitCode).toBeNull();
    expect(lifeline.child.signalCode).toBeNull();
  });

  it("writes succeed again within seconds of the promotion", () => {
    expect(seen.writesBackAt).toBeGreaterThan(0);
    expect(seen.writesBackAt - seen.promotedAt).toBeLessThan(5_000);
  });

  it("every write acknowledged, before the failover or after, is on the promoted server", () => {
    expect(seen.acknowledged.length).toBeGreaterThanOrEqual(40);
    expect(seen.machinesAfter).toEqual(expect.arrayContaining(seen.acknowledged));
  });

  it("requests during the failover are refused UNAVAILABLE and retryable, never as internal errors", () => {
    const failed = seen.answers.filter((a) => a.errors);
    expect(failed.length).toBeGreaterThan(0);
    for (const answer of failed)
      expect(answer.errors, JSON.stringify(answer)).toEqual([
        expect.objectContaining({ extensions: expect.objectContaining({ code: "UNAVAILABLE", retryable: true }) }),
      ]);
  });

  it("nothing in the process failed unexpectedly: no request of its agents either was masked as an internal error", () => {
    // yoga's logger prints each error it masks with this prefix (an outage's are kept out of its log: src/server/app.ts).
    expect(lifeline.output()).not.toContain("\u001b[31mERR\u001b[0m");
  });

  it("no request hangs through the failover: each is answered within the connect timeout", () => {
    expect(Math.max(...seen.answers.map((a) => a.ms))).toBeLessThan(12_000);
  });

  it("the stream, resumed by `since`, sees each change exactly once: the same changes as the log, in order", () => {
    const key = (e: StreamEvent) =>
      `${e.revision} ${e.kind} ${e.entity} ${JSON.stringify(e.changed)} ${JSON.stringify(entityOf(e))} ${e.removed}`;
    const upTo = (events: StreamEvent[]) => events.filter((e) => Number(e.revision) <= seen.revision).map(key);
    const stream = seen.stream!;
    expect(upTo(stream.changes)).toEqual(upTo(seen.replay!.changes));
    for (const id of seen.acknowledged) expect(stream.changes.some((e) => e.kind === "MACHINE" && e.entity === id)).toBe(true);
  });

  it("a stream refused during the failover is refused UNAVAILABLE, never as an internal error", () => {
    for (const error of [...seen.stream!.errors, ...seen.replay!.errors])
      expect(error, JSON.stringify(error)).toMatchObject({ extensions: { code: "UNAVAILABLE" } });
  });

  it("while there is no primary, no process is elected: the standby is not taken for one", () => {
    expect(seen.outputOutage).toContain("agents: this process lost the agents' lock");
    expect(runsAgents(seen.outputOutage)).toBe(0);
  });

  it("the agents are elected again on the promoted server, and provision the next machine", () => {
    expect(runsAgents(seen.outputBefore)).toBe(1);
    expect(runsAgents(lifeline.output().slice(seen.outputBefore.length))).toBeGreaterThanOrEqual(1);
    expect(seen.provisionedAfter).toBeTruthy();
  });
});
