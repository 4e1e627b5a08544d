// Issue 12: "Limits a serious GraphQL server has, each configurable, documented, with a
// coded refusal before any execution ... on both transports." Every hostile request here is
// one the issue names (or one like it): each is refused with its code, fast, while the
// server keeps answering others, and nothing changes.
import { maxHeaderSize } from "node:http";
import { connect } from "node:net";
import { type GraphQLInputType, getIntrospectionQuery, getOperationAST, parse, print, typeFromAST, validate } from "graphql";
import { createClient } from "graphql-ws";
import { beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import * as documents from "../src/client/graphql.js";
import { schema } from "../src/graphql/schema.js";
import { createYogaApp } from "../src/server/app.js";
import { complexityRule, defaultRequestLimits, documentRules, parseWithin } from "../src/server/request-limits.js";
import { sampleVariables } from "./support/sample-values.js";
import { adminHeaders } from "./support/store.js";
import { type LiveServer, useLiveServer } from "./support/streams.js";

const live = useLiveServer();
let model: string;

beforeAll(async () => {
  model = (await live.newModel()).name;
  await live.ok(`mutation ($model: String!) { deploy(input: { model: $model, charm: "wordpress" }) { name } }`, { model });
  await live.ok(`mutation ($model: String!) { deploy(input: { model: $model, charm: "mysql" }) { name } }`, { model });
  await live.ok(`mutation ($model: String!) { integrate(input: { model: $model, endpoints: ["wordpress", "mysql"] }) { key } }`, { model });
});

interface Answer {
  status: number;
  ms: number;
  body: { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] };
}

async function send(server: LiveServer, query: string, variables: Record<string, unknown> = {}): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(server.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...adminHeaders },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as Answer["body"];
  return { status: response.status, ms: performance.now() - started, body };
}

const revision = async () => (await live.ok(`query ($model: String!) { model(name: $model) { revision } }`, { model })).model.revision;

/**
 * Sends the request three times beside a cheap read; expects the same refusal each time and returns it.
 * "Fast" is the quickest of the three within 100 ms: the refusal's own cost, not the machine's noise.
 */
async function expectRefusedFast(query: string, code: string, limit?: string, variables: Record<string, unknown> = {}) {
  const before = await revision();
  const answers: Answer[] = [];
  for (let i = 0; i < 3; i++) {
    const [answer, other] = await Promise.all([send(live, query, variables), send(live, "{ __typename }")]);
    expect(other.body).toEqual({ data: { __typename: "Query" } });
    answers.push(answer);
  }
  for (const { body } of answers) {
    expect(body.data ?? null, JSON.stringify(body).slice(0, 500)).toBeNull();
    expect(body.errors?.map((e) => e.extensions?.code)).toContain(code);
    if (limit) expect(body.errors?.map((e) => e.extensions?.limit)).toContain(limit);
    expect(JSON.stringify(body).length).toBeLessThan(4096);
  }
  expect(Math.min(...answers.map((a) => a.ms))).toBeLessThan(100);
  expect(await revision()).toBe(before);
  return answers[0]!.body.errors!;
}

const nested = (depth: number) => {
  let selection = "name";
  for (let i = 0; i < depth; i++) selection = `application { relations { endpoints { ${selection} } } }`;
  return `query ($model: String!) { model(name: $model) { application(name: "wordpress") { relations { endpoints { ${selection} } } } } }`;
};

describe("request limits (defaults; LIFELINE_MAX_* sets each)", () => {
  it("depth: relations nested 30 deep are refused, QUERY_TOO_COMPLEX with limit depth, max and actual", async () => {
    const [error] = await expectRefusedFast(nested(10), "QUERY_TOO_COMPLEX", "depth", { model });
    expect(error!.extensions).toMatchObject({ max: defaultRequestLimits.maxDepth });
    expect(error!.extensions!.actual).toBeGreaterThan(30);
  });

  it("depth: within the limit the same shape runs", async () => {
    const answer = await send(live, nested(1), { model });
    expect(answer.body.errors).toBeUndefined();
  });

  it("cost weighs a connection by its page size: 1000 models × 1000 applications is refused, 10 × 10 runs", async () => {
    const query = (n: number) => `{ models(first: ${n}) { edges { node { applications(first: ${n}) { edges { node { name } } } } } } }`;
    await expectRefusedFast(query(1000), "QUERY_TOO_COMPLEX", "cost");
    expect((await send(live, query(10))).body.errors).toBeUndefined();
  });

  it("cost counts a page size given as a variable", async () => {
    const query = `query ($n: Int) { models(first: $n) { edges { node { applications(first: $n) { edges { node { name } } } } } } }`;
    await expectRefusedFast(query, "QUERY_TOO_COMPLEX", "cost", { n: 1000 });
    expect((await send(live, query, { n: 10 })).body.errors).toBeUndefined();
  });

  it("breadth: one field selected 600 times is refused", async () => {
    await expectRefusedFast(`query ($model: String!) { model(name: $model) { ${"name ".repeat(600)} } }`, "QUERY_TOO_COMPLEX", "breadth", {
      model,
    });
  });

  it("aliases: 40 aliases of a field are refused", async () => {
    const aliases = Array.from({ length: 40 }, (_, i) => `n${i}: name`).join(" ");
    await expectRefusedFast(`query ($model: String!) { model(name: $model) { ${aliases} } }`, "QUERY_TOO_COMPLEX", "aliases", { model });
  });

  it("root fields: 20 reads of the model in one operation are refused (each would be a transaction)", async () => {
    const roots = Array.from({ length: 20 }, (_, i) => `m${i}: model(name: $model) { revision }`).join(" ");
    await expectRefusedFast(`query ($model: String!) { ${roots} }`, "QUERY_TOO_COMPLEX", "rootFields", { model });
  });

  it("root fields: 20 mutations in one operation are refused and none runs", async () => {
    const roots = Array.from(
      { length: 20 },
      (_, i) => `d${i}: deploy(input: { model: $model, charm: "mysql", application: "db${i}" }) { name }`,
    ).join(" ");
    await expectRefusedFast(`mutation ($model: String!) { ${roots} }`, "QUERY_TOO_COMPLEX", "rootFields", { model });
  });

  it("10,000 aliased root fields are refused at the token limit, before validation", async () => {
    const roots = Array.from({ length: 10_000 }, (_, i) => `a${i}: model(name: "default") { revision }`).join(" ");
    const answer = await send(live, `{ ${roots} }`);
    expect(answer.body.errors?.map((e) => e.extensions?.code)).toEqual(["REQUEST_TOO_LARGE"]);
    const fewer = Array.from({ length: 400 }, (_, i) => `a${i}: __typename`).join(" ");
    await expectRefusedFast(`{ ${fewer} }`, "QUERY_TOO_COMPLEX", "tokens");
  });

  it("directives: 40 on one field are refused", async () => {
    await expectRefusedFast(`{ ${"__typename @include(if: true) ".repeat(40)} }`, "QUERY_TOO_COMPLEX", "directives");
  });

  it("tokens: a selection nested 2,100 deep (the parser's stack overflow in the issue) is refused", async () => {
    await expectRefusedFast(`{ ${"a {".repeat(2100)}${"}".repeat(2100)} }`, "QUERY_TOO_COMPLEX", "tokens");
  });

  it("tokens: a list literal nested 2,100 deep is refused", async () => {
    await expectRefusedFast(`{ model(name: ${"[".repeat(2100)}${"]".repeat(2100)}) { name } }`, "QUERY_TOO_COMPLEX", "tokens");
  });

  it("document length: a 70,000-character document is refused, REQUEST_TOO_LARGE", async () => {
    await expectRefusedFast(`# ${"x".repeat(70_000)}\n{ __typename }`, "REQUEST_TOO_LARGE", "documentLength");
  });

  it("the token limit's refusal depends on graphql-js's wording: pinned here", () => {
    expect(() => parse(`{ ${"a ".repeat(50)} }`, { maxTokens: 10 })).toThrow(/tokens\. Parsing aborted/);
  });

  it("with the token limit raised past the parser's stack, a deep document is GRAPHQL_PARSE_FAILED, not internal", async () => {
    const yoga = createYogaApp(live.store, undefined, undefined, {
      ...defaultRequestLimits,
      maxTokens: 10_000_000,
      maxDocumentLength: 10_000_000,
    });
    const response = await yoga.fetch("http://lifeline.test/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...adminHeaders },
      body: JSON.stringify({ query: `{ ${"a {".repeat(100_000)}${"}".repeat(100_000)} }` }),
    });
    const body = (await response.json()) as Answer["body"];
    expect(body.errors?.map((e) => e.extensions?.code)).toEqual(["GRAPHQL_PARSE_FAILED"]);
  });
});

describe("elements of lists and objects, counted before coercion (issue 32)", () => {
  const { maxListLength, maxObjectKeys, maxInputValues } = defaultRequestLimits;
  const REMOVE_UNITS = `mutation ($input: RemoveUnitInput!) { removeUnit(input: $input) { id outcome } }`;
  const SET_STATE = `mutation ($input: UnitAgentStateInput!) { setUnitAgentState(input: $input) { name } }`;
  const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
  /**
   * The refusal of a large input, and nothing changed; untimed (megabytes cost the client and the machine's load
   * their share: bench/boundaries.ts measures the time). That it comes before coercion shows in which layer answered.
   */
  const refused = async (query: string, variables: Record<string, unknown>) => {
    const before = await revision();
    const answer = await send(live, query, variables);
    expect(answer.body.data ?? null).toBeNull();
    expect(await revision()).toBe(before);
    expect(answer.body.errors).toHaveLength(1);
    return answer.body.errors![0]!;
  };

  it("a list one past maxListLength is refused, INVALID_ARGUMENT with limit listLength, max and the variable's path", async () => {
    const units = Array.from({ length: maxListLength + 1 }, (_, i) => `wordpress/${i}`);
    const [error] = await expectRefusedFast(REMOVE_UNITS, "INVALID_ARGUMENT", "listLength", { input: { model, units } });
    expect(error!.extensions).toMatchObject({ limit: "listLength", max: maxListLength, variable: "$input.units" });
  });

  it("the attacker's 100,000 entities of a changes stream are refused by the list's length", async () => {
    const entities = Array.from({ length: 100_000 }, (_, i) => `wordpress/${i}`);
    const error = await refused(`subscription ($model: String!, $e: [String!]) { changes(model: $model, entities: $e) { type } }`, {
      model,
      e: entities,
    });
    expect(error.extensions).toMatchObject({ code: "INVALID_ARGUMENT", limit: "listLength", variable: "$e" });
  });

  it("a 150,000-key state (1.6 MB, within the body limit) is refused by the request's limits, before coercion: the model's own size check never runs", async () => {
    // The 300,000 keys (4.9 MB) are refused by the body's Content-Length first (413).
    const state = Object.fromEntries(Array.from({ length: 150_000 }, (_, i) => [String(i), 0]));
    const error = await refused(SET_STATE, { input: { model, unit: "wordpress/0", state } });
    // The model's refusal names the state's size in bytes; this one names the count, from the request layer.
    expect(error.extensions).toEqual({ code: "INVALID_ARGUMENT", limit: "objectKeys", max: maxObjectKeys, variable: "$input.state" });
    expect(error.message).toMatch(/150000 keys; at most/);
  });

  it("lists and objects each within their cap, past maxInputValues in all, are refused with limit inputValues", async () => {
    const perList = Math.min(maxListLength, 1000);
    const lists = Math.ceil(maxInputValues / perList) + 1;
    const state = Object.fromEntries(Array.from({ length: lists }, (_, i) => [`l${i}`, Array(perList).fill(0)]));
    const error = await refused(SET_STATE, { input: { model, unit: "wordpress/0", state } });
    expect(error.extensions).toMatchObject({ code: "INVALID_ARGUMENT", limit: "inputValues", max: maxInputValues });
  });

  it("within the caps, the same mutations run", async () => {
    const answer = await send(live, SET_STATE, { input: { model, unit: "wordpress/0", state: keys(100) } });
    expect(answer.body.errors).toBeUndefined();
  });

  it("literals are counted too (limits lowered: the token limit keeps default literals under the default caps)", async () => {
    const yoga = createYogaApp(live.store, undefined, undefined, { ...defaultRequestLimits, maxListLength: 3, maxObjectKeys: 2 });
    const post = async (query: string) => {
      const response = await yoga.fetch("http://lifeline.test/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...adminHeaders },
        body: JSON.stringify({ query }),
      });
      return ((await response.json()) as Answer["body"]).errors?.map((e) => e.extensions) ?? [];
    };
    const list = await post(`mutation { removeUnit(input: { model: "${model}", units: ["a/1", "a/2", "a/3", "a/4"] }) { id } }`);
    expect(list).toEqual([expect.objectContaining({ code: "INVALID_ARGUMENT", limit: "listLength", max: 3 })]);
    const object = await post(`mutation { removeUnit(input: { model: "${model}", units: ["a/1"], force: true }) { id } }`);
    expect(object).toEqual([expect.objectContaining({ code: "INVALID_ARGUMENT", limit: "objectKeys", max: 2 })]);
  });

  it("over graphql-ws, a subscription and a mutation past the caps are refused alone; the socket stays open", async () => {
    const client = createClient({
      url: live.url.replace(/^http/, "ws"),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: adminHeaders,
    });
    const answer = (query: string, variables: Record<string, unknown>) =>
      new Promise<{ extensions?: Record<string, unknown> }[]>((resolve, reject) =>
        client.subscribe(
          { query, variables },
          {
            next: (result) => resolve((result.errors ?? []) as never),
            error: (e) => resolve(e as never),
            complete: () => reject(new Error("completed without an answer")),
          },
        ),
      );
    try {
      const before = await revision();
      const entities = Array.from({ length: maxListLength + 1 }, (_, i) => `wordpress/${i}`);
      const stream = await answer(`subscription ($model: String!, $e: [String!]) { changes(model: $model, entities: $e) { type } }`, {
        model,
        e: entities,
      });
      expect(stream.map((e) => [e.extensions?.code, e.extensions?.limit, e.extensions?.max])).toEqual([
        ["INVALID_ARGUMENT", "listLength", maxListLength],
      ]);
      const write = await answer(SET_STATE, { input: { model, unit: "wordpress/0", state: keys(maxObjectKeys + 1) } });
      expect(write.map((e) => [e.extensions?.code, e.extensions?.limit, e.extensions?.max])).toEqual([
        ["INVALID_ARGUMENT", "objectKeys", maxObjectKeys],
      ]);
      expect(await answer("{ __typename }", {})).toEqual([]);
      expect(await revision()).toBe(before);
    } finally {
      await client.dispose();
    }
  });
});

describe("request bodies", () => {
  it("a body over maxRequestBytes is refused by its Content-Length with 413 and REQUEST_TOO_LARGE, unread", async () => {
    const started = performance.now();
    const response = await fetch(live.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...adminHeaders },
      body: JSON.stringify({ query: "{ __typename }", variables: { x: "x".repeat(defaultRequestLimits.maxRequestBytes) } }),
    });
    expect(response.status).toBe(413);
    const body = (await response.json()) as Answer["body"];
    expect(body.errors?.map((e) => e.extensions?.code)).toEqual(["REQUEST_TOO_LARGE"]);
    expect(performance.now() - started).toBeLessThan(5000);
    expect((await send(live, "{ __typename }")).body).toEqual({ data: { __typename: "Query" } });
  });

  it("a chunked POST without Content-Length is refused with 411", async () => {
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(live.url, { method: "POST", headers: { "content-type": "application/json", ...adminHeaders } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.write(JSON.stringify({ query: "{ __typename }" }));
      req.end();
    });
    expect(status).toBe(411);
  });
});

describe("malformed HTTP requests", () => {
  const json = { "content-type": "application/json", accept: "application/json", ...adminHeaders };
  const rows: [string, number, string, RequestInit, string?][] = [
    ["a body that is not JSON", 400, "BAD_REQUEST", { method: "POST", headers: json, body: "{not json" }],
    ["no query", 200, "BAD_REQUEST", { method: "POST", headers: json, body: "{}" }],
    ["a query that is not a string", 400, "BAD_REQUEST", { method: "POST", headers: json, body: '{"query":5}' }],
    [
      "variables that are not an object",
      400,
      "BAD_REQUEST",
      { method: "POST", headers: json, body: '{"query":"{ __typename }","variables":5}' },
    ],
    ["PUT", 405, "BAD_REQUEST", { method: "PUT", headers: json, body: "{}" }],
    ["a body in text/plain", 415, "BAD_REQUEST", { method: "POST", headers: { ...json, "content-type": "text/plain" }, body: "{}" }],
    ["a mutation over GET", 405, "BAD_REQUEST", { method: "GET", headers: json }, '?query=mutation{addModel(input:{name:"q"}){name}}'],
    [
      "an operation name the document lacks",
      400,
      "OPERATION_RESOLUTION_FAILURE",
      { method: "POST", headers: json, body: '{"query":"query A { __typename }","operationName":"B"}' },
    ],
    ["a batch", 400, "BAD_REQUEST", { method: "POST", headers: json, body: '[{"query":"{ __typename }"}]' }],
  ];

  it.each(rows)("%s: %i with %s", async (_name, status, code, init, search) => {
    const response = await fetch(`${live.url}${search ?? ""}`, init);
    expect(response.status).toBe(status);
    const body = (await response.json()) as Answer["body"];
    expect(body.errors?.map((e) => e.extensions?.code)).toEqual([code]);
  });
});

describe("refusals Node's HTTP server makes before any handler", () => {
  it("a header section over Node's limit is answered 431 with REQUEST_TOO_LARGE, limit headers; the server goes on", async () => {
    const response = await fetch(live.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...adminHeaders, "x-padding": "x".repeat(maxHeaderSize + 1) },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(response.status).toBe(431);
    const body = (await response.json()) as Answer["body"];
    expect(body.errors?.map((e) => [e.extensions?.code, e.extensions?.limit])).toEqual([["REQUEST_TOO_LARGE", "headers"]]);
    expect((await send(live, "{ __typename }")).body).toEqual({ data: { __typename: "Query" } });
  });

  it("a request that is not HTTP is answered 400 with BAD_REQUEST, and the connection closed", async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const { port, hostname } = new URL(live.url);
      const socket = connect(Number(port), hostname, () => socket.end("NOT HTTP AT ALL\r\n\r\n"));
      let text = "";
      socket.on("data", (chunk) => (text += chunk));
      socket.on("close", () => resolve(text));
      socket.on("error", reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as Answer["body"];
    expect(body.errors?.map((e) => e.extensions?.code)).toEqual(["BAD_REQUEST"]);
  });
});

describe("over graphql-ws and SSE", () => {
  it("a subscription over the limits is refused alone on its socket; the socket stays open", async () => {
    let closed = false;
    const client = createClient({
      url: live.url.replace(/^http/, "ws"),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: adminHeaders,
      on: {
        closed: () => {
          closed = true;
        },
      },
    });
    try {
      const refused = (query: string, variables: Record<string, unknown> = {}) =>
        new Promise<{ extensions?: Record<string, unknown> }[]>((resolve, reject) =>
          client.subscribe(
            { query, variables },
            {
              // A refusal before execution comes as `error`; one from the execution guard as a result with errors.
              next: (result) => (result.errors ? resolve(result.errors as never) : reject(new Error("expected a refusal"))),
              error: (e) => resolve(e as never),
              complete: () => reject(new Error("completed")),
            },
          ),
        );
      const deep = await refused(`subscription { changes(model: "${model}") { ${"a {".repeat(1500)}${"}".repeat(1500)} } }`);
      expect(deep.map((e) => e.extensions?.code)).toEqual(["QUERY_TOO_COMPLEX"]);
      // The NUL in changes(entities:), over graphql-ws.
      const nul = await refused(
        `subscription ($model: String!, $entities: [String!]) { changes(model: $model, entities: $entities) { type } }`,
        {
          model,
          entities: ["mysql\u0000"],
        },
      );
      expect(nul.map((e) => e.extensions?.code)).toEqual(["INVALID_ARGUMENT"]);
      const answer = await new Promise<unknown>((resolve, reject) =>
        client.subscribe({ query: "{ __typename }" }, { next: (r) => resolve(r.data), error: reject, complete: () => {} }),
      );
      expect(answer).toEqual({ __typename: "Query" });
      expect(closed).toBe(false);
    } finally {
      await client.dispose();
    }
  });

  const sse = async (query: string, headers: Record<string, string> = adminHeaders) => {
    const controller = new AbortController();
    const response = await fetch(live.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", ...headers },
      body: JSON.stringify({ query }),
      signal: controller.signal,
    });
    const text = response.status === 200 ? "" : await response.text();
    controller.abort();
    return { status: response.status, text };
  };

  it("SSE refusals carry the status their code implies: NOT_FOUND 404, INVALID_ARGUMENT 400, UNAUTHENTICATED 401, limits 400", async () => {
    const changes = (args: string) => `subscription { changes(${args}) { type } }`;
    const notFound = await sse(changes(`model: "no-such-model"`));
    expect(notFound.status).toBe(404);
    expect(notFound.text).toContain("NOT_FOUND");
    const invalid = await sse(changes(`model: "${model}", since: "not-a-revision"`));
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain("INVALID_ARGUMENT");
    expect((await sse(changes(`model: "${model}"`), {})).status).toBe(401);
    const deep = await sse(`subscription { changes(model: "${model}") { ${"a {".repeat(1500)}${"}".repeat(1500)} } }`);
    expect(deep.status).toBe(400);
    expect(deep.text).toContain("QUERY_TOO_COMPLEX");
  });

  it("an accepted SSE subscription still answers 200", async () => {
    expect((await sse(`subscription { changes(model: "${model}") { type } }`)).status).toBe(200);
  });
});

describe("Lifeline's own documents stay within the default limits", () => {
  const limits = defaultRequestLimits;
  const all = Object.entries(documents).filter(([name]) => name.endsWith("Document"));

  it("finds the generated client's documents", () => {
    expect(all.length).toBeGreaterThan(20);
  });

  it.each(all)("%s", (_name, document) => {
    const text = print(document as never);
    const parsed = parseWithin(limits)(text);
    const operation = getOperationAST(parsed)!;
    const variables = sampleVariables(operation.variableDefinitions ?? [], (node) => typeFromAST(schema, node) as GraphQLInputType);
    const errors = validate(schema, parsed, [...documentRules(limits), complexityRule(limits, { variables, context: {} })]);
    expect(errors.map((e) => e.message)).toEqual([]);
  });

  it("GraphiQL's and codegen's introspection query", () => {
    const parsed = parseWithin(limits)(getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }));
    expect(validate(schema, parsed, documentRules(limits))).toEqual([]);
  });
});
