// Specification of shared execution: a subscription's selection set runs once per event
// for each distinct operation and variables, however many subscribers share them; an
// event made for one subscriber is executed for that one alone. A tiny real schema
// stands in for Lifeline's, so the count of resolver runs can be read.

import { RequestCache } from "@pothos/plugin-scope-auth";
import { buildSchema, type DocumentNode, type ExecutionResult, GraphQLError, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { sharedSubscribe } from "../src/server/shared-execution.js";

/** An event source like a change stream: events are pushed in, `return()` ends a waiting `next()`. */
class Source implements AsyncIterableIterator<object> {
  private queue: object[] = [];
  private wake: (() => void) | null = null;
  private done = false;
  push(event: object) {
    this.queue.push(event);
    this.wake?.();
  }
  async next(): Promise<IteratorResult<object>> {
    while (this.queue.length === 0 && !this.done) await new Promise<void>((r) => (this.wake = r));
    return this.done ? { value: undefined, done: true } : { value: this.queue.shift()!, done: false };
  }
  async return(): Promise<IteratorResult<object>> {
    this.done = true;
    this.wake?.();
    return { value: undefined, done: true };
  }
  [Symbol.asyncIterator]() {
    return this;
  }
}

/** Stands in for yoga's masked errors (src/graphql/errors.ts): counts what it masks. */
class Masking {
  masked: unknown[] = [];
  readonly mask = (error: unknown) => {
    this.masked.push(error);
    return new GraphQLError("Unexpected error.", { extensions: { code: "INTERNAL_SERVER_ERROR" } });
  };
}

function world() {
  const schema = buildSchema(
    `type Query { ok: Boolean } type Event { label(prefix: String): String, broken: String } type Subscription { events: Event }`,
  );
  const sources: Source[] = [];
  const masking = new Masking();
  let runs = 0;
  /** Each event's scope-auth cache for the subscriber's context, as its `label` resolver found it. */
  const scopeCaches: unknown[] = [];
  const open = async (document: DocumentNode, variables: Record<string, unknown> = {}, contextValue: object = {}) =>
    (await sharedSubscribe(
      {
        schema,
        document,
        variableValues: variables,
        contextValue,
        rootValue: { events: () => sources[sources.push(new Source()) - 1] },
        // `events` resolves to the event itself (as Lifeline's stream fields do); `label` counts its runs.
        fieldResolver: (source: any, args: { prefix?: string }, ctx, info) => {
          if (info.fieldName === "broken") throw new Error("a bug's message, which clients must not see");
          if (info.fieldName !== "label") return info.parentType.name === "Subscription" ? source : source[info.fieldName];
          runs++;
          scopeCaches.push(RequestCache.fromContext(ctx as object, SCOPE_AUTH_BUILDER as never));
          return `${args.prefix ?? ""}x`;
        },
        subscribeFieldResolver: (root: any, _args, _ctx, info) => root[info.fieldName](),
      },
      masking.mask,
    )) as AsyncIterableIterator<ExecutionResult>;
  return { sources, open, runs: () => runs, masking, scopeCaches };
}

/** What scope-auth's cache reads of its builder. */
const SCOPE_AUTH_BUILDER = { options: { scopeAuth: { authScopes: () => ({}) } } };

const LABELS = parse(`subscription ($p: String) { events { label(prefix: $p) } }`);

describe("shared execution", () => {
  it("runs the selection set once per event for subscribers sharing an operation and variables", async () => {
    const w = world();
    const streams = await Promise.all(Array.from({ length: 5 }, () => w.open(LABELS, { p: "a" })));
    const event = {}; // one object handed to every subscriber, as the change feed does
    for (const source of w.sources) source.push(event);
    const results = await Promise.all(streams.map((s) => s.next()));
    expect(results.map((r) => r.value.data)).toEqual(Array(5).fill({ events: { label: "ax" } }));
    expect(w.runs()).toBe(1);
  });

  it("runs it again for different variables", async () => {
    const w = world();
    const [a, b] = [await w.open(LABELS, { p: "a" }), await w.open(LABELS, { p: "b" })];
    const event = {};
    for (const source of w.sources) source.push(event);
    expect([(await a.next()).value.data, (await b.next()).value.data]).toEqual([{ events: { label: "ax" } }, { events: { label: "bx" } }]);
    expect(w.runs()).toBe(2);
  });

  it("runs an event made for one subscriber (a snapshot, a catch-up) for that one alone", async () => {
    const w = world();
    const [a, b] = [await w.open(LABELS), await w.open(LABELS)];
    w.sources[0]!.push({});
    w.sources[1]!.push({});
    await Promise.all([a.next(), b.next()]);
    expect(w.runs()).toBe(2);
  });

  it("each event's scope checks start afresh: a stream keeps no decision from one event to the next", async () => {
    const w = world();
    const stream = await w.open(LABELS, {}, { actor: "someone" });
    w.sources[0]!.push({});
    await stream.next();
    w.sources[0]!.push({});
    await stream.next();
    expect(w.scopeCaches).toHaveLength(2);
    expect(w.scopeCaches[0]).not.toBe(w.scopeCaches[1]);
  });

  it("a subscriber leaving while it waits ends its source at once", async () => {
    const w = world();
    const stream = await w.open(LABELS);
    const waiting = stream.next();
    await stream.return!();
    expect((await waiting).done).toBe(true);
  });

  it("masks an event's unexpected errors as yoga would, once for every subscriber sharing the result", async () => {
    const w = world();
    const broken = parse(`subscription { events { broken } }`);
    const streams = await Promise.all([0, 1, 2].map(() => w.open(broken)));
    const event = {};
    for (const source of w.sources) source.push(event);
    const results = await Promise.all(streams.map((s) => s.next()));
    expect(results.map((r) => r.value.errors.map((e: GraphQLError) => [e.message, e.extensions.code]))).toEqual(
      Array(3).fill([["Unexpected error.", "INTERNAL_SERVER_ERROR"]]),
    );
    expect(w.masking.masked).toHaveLength(1);
  });

  it("masks a failing source's error before it reaches the transport", async () => {
    const w = world();
    const stream = await w.open(LABELS);
    w.sources[0]!.next = () => Promise.reject(new Error("the socket to the database broke"));
    await expect(stream.next()).rejects.toMatchObject({ message: "Unexpected error.", extensions: { code: "INTERNAL_SERVER_ERROR" } });
    expect(w.masking.masked).toHaveLength(1);
  });
});
