// Plain POSTs (src/server/plain-post.ts): a script's or an agent's JSON POST is answered without yoga's WHATWG
// wrapping, and gets the answer yoga would have given, refusals included. Two real servers on one store, one with the
// plain path and one without, are sent the same requests byte for byte; status, content type and body must agree.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../src/db/connect.js";
import { createYogaApp, type RunningServer, startServer } from "../src/server/app.js";
import { plainPosts } from "../src/server/plain-post.js";
import { logIn } from "./support/browser.js";
import { ADMIN_TOKEN, openPrivateTestStore, uniqueName } from "./support/store.js";

let store: Store;
let plain: RunningServer;
let yogaOnly: RunningServer;
let cookie: string;
const model = uniqueName("plain");

beforeAll(async () => {
  store = await openPrivateTestStore();
  plain = await startServer(store, "127.0.0.1", 0);
  yogaOnly = await startServer(store, "127.0.0.1", 0, { plainPosts: false });
  cookie = await logIn(store.db, plain.url);
  await send(plain.url, { body: JSON.stringify({ query: `mutation { addModel(input: { name: "${model}" }) { name } }` }) });
});
afterAll(async () => {
  await plain?.close();
  await yogaOnly?.close();
  await store?.close();
});

interface Sent {
  body: string;
  headers?: Record<string, string>;
  path?: string;
}
interface Answer {
  status: number;
  statusText: string | undefined;
  contentType: string | undefined;
  body: string;
  allow?: string | undefined;
}

/** POSTs `body` with exactly these headers (a bearer token, JSON's content type, unless given otherwise). */
function send(url: string, { body, headers = {}, path }: Sent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      path ? new URL(path, url) : url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${ADMIN_TOKEN}`,
          ...headers,
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            statusText: res.statusMessage,
            contentType: res.headers["content-type"],
            body: text,
            allow: res.headers.allow ?? res.headers.accept,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const json = (query: string, variables?: unknown, more: Record<string, unknown> = {}) => JSON.stringify({ query, variables, ...more });
const VIEWER = `{ viewer { kind role } }`;
const SET = `mutation ($m: String!, $c: String!) { setConstraints(input: { model: $m, constraints: $c }) { text } }`;

/** The same request to both servers: the answers agree. Answers the plain server's. */
async function agree(sent: Sent): Promise<Answer> {
  const [mine, yogas] = [await send(plain.url, sent), await send(yogaOnly.url, sent)];
  expect(mine).toEqual(yogas);
  return mine;
}

describe("a plain POST gets yoga's answer", () => {
  it.each([
    ["application/json", { accept: "application/json" }],
    ["application/graphql-response+json", { accept: "application/graphql-response+json; charset=utf-8" }],
    ["both, as the lifeline command asks", { accept: "application/graphql-response+json, application/json" }],
    ["no Accept (yoga's)", {}],
    ["*/* (yoga's)", { accept: "*/*" }],
  ])("a query's data, asked with %s", async (_, headers) => {
    const answer = await agree({ body: json(VIEWER), headers });
    expect(JSON.parse(answer.body)).toEqual({ data: { viewer: { kind: "person", role: "ADMIN" } } });
  });

  it.each(["application/json", "application/graphql-response+json"])("a mutation's refusal, NOT_FOUND, as %s", async (accept) => {
    const answer = await agree({ body: json(SET, { m: uniqueName("missing"), c: "cores=2" }), headers: { accept } });
    expect(JSON.parse(answer.body).errors[0].extensions.code).toBe("NOT_FOUND");
  });

  it.each([
    ["no credentials: UNAUTHENTICATED", json(VIEWER), { authorization: "" }],
    ["a document that does not parse: GRAPHQL_PARSE_FAILED", json("{ viewer {"), {}],
    ["a field that does not exist: GRAPHQL_VALIDATION_FAILED", json("{ nothing }"), {}],
    ["a missing variable: BAD_USER_INPUT", json(SET, { m: model }), {}],
    ["variables that are not an object: BAD_REQUEST", json(VIEWER, "cores=2"), {}],
    ["a query that is not a string", JSON.stringify({ query: 1 }), {}],
    ["no query", JSON.stringify({ variables: {} }), {}],
    ["a parameter GraphQL does not have", json(VIEWER, undefined, { depth: 1 }), {}],
    ["a batch (an array)", JSON.stringify([{ query: VIEWER }]), {}],
    ["a body that is not JSON", "{ viewer", {}],
    ["JSON that is not an object", "42", {}],
    ["a subscription, which JSON cannot carry", json(`subscription { changes(model: "${model}") { revision } }`), {}],
  ])("%s", async (_, body, headers) => {
    for (const accept of ["application/json", "application/graphql-response+json", "application/json, application/graphql-response+json"]) {
      const answer = await agree({ body, headers: { ...headers, accept } });
      expect(answer.status === 200 && !answer.body.includes('"errors"')).toBe(false);
    }
  });

  it("a browser session's cookie from a cross-site page, without an Origin: FORBIDDEN", async () => {
    const answer = await agree({ body: json(VIEWER), headers: { authorization: "", cookie, "sec-fetch-site": "cross-site" } });
    expect(JSON.parse(answer.body).errors[0].extensions.code).toBe("FORBIDDEN");
  });

  it("a mutation runs once, with the revision it made", async () => {
    const before = await send(plain.url, { body: json(`query ($m: String!) { model(name: $m) { revision } }`, { m: model }) });
    const set = await send(plain.url, { body: json(SET, { m: model, c: "cores=3" }) });
    expect(JSON.parse(set.body)).toEqual({ data: { setConstraints: { text: "cores=3" } } });
    const after = await send(plain.url, { body: json(`query ($m: String!) { model(name: $m) { revision } }`, { m: model }) });
    expect(Number(JSON.parse(after.body).data.model.revision)).toBe(Number(JSON.parse(before.body).data.model.revision) + 1);
  });
});

describe("what a plain POST is", () => {
  // The plain path alone, in front of a server that answers 599 to whatever it leaves.
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const { createServer } = await import("node:http");
    const plainOnly = plainPosts(createYogaApp(store));
    const server = createServer((req, res) => plainOnly(req, res) || res.writeHead(599).end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address() as { port: number };
    url = `http://127.0.0.1:${address.port}/graphql`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterAll(() => close());

  it.each([
    ["JSON asking for JSON", { accept: "application/json" }],
    ["with a utf-8 charset", { "content-type": "application/json; charset=utf-8", accept: "application/json;charset=UTF-8" }],
    ["asking for graphql-response+json", { accept: "application/graphql-response+json" }],
    ["asking for both", { accept: "application/graphql-response+json, application/json" }],
  ])("answered plainly: %s", async (_, headers) => {
    expect((await send(url, { body: json(VIEWER), headers })).status).toBe(200);
  });

  it.each([
    ["no Accept (a subscription would be an event stream)", {}],
    ["*/*", { accept: "*/*" }],
    ["a page's request (Origin: CORS is yoga's)", { origin: "http://127.0.0.1:1", accept: "application/json" }],
    ["a server-sent event stream", { accept: "text/event-stream" }],
    ["JSON or an event stream", { accept: "application/json, text/event-stream" }],
    ["another charset", { accept: "application/json; charset=latin1" }],
    ["a weight", { accept: "application/json; q=0.9" }],
    ["a GraphQL document as the body", { "content-type": "application/graphql", accept: "application/json" }],
    ["a compressed body", { "content-encoding": "gzip", accept: "application/json" }],
  ])("left to yoga: %s", async (_, headers) => {
    expect((await send(url, { body: json(VIEWER), headers })).status).toBe(599);
  });

  it("left to yoga: parameters in the URL", async () => {
    const answer = await send(url, {
      body: json(VIEWER),
      path: "/graphql?query=%7B__typename%7D",
      headers: { accept: "application/json" },
    });
    expect(answer.status).toBe(599);
  });
});
