// A refusal is the same whichever way it is asked: HTTP (POST and GET), SSE and graphql-ws, for a query and for a
// subscription, with the caller's token wherever it may put it. Here a read-only token for one model asks about another.
import { createClient } from "graphql-ws";
import { beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { useLiveServer } from "./support/streams.js";

const live = useLiveServer();
let token = "";
let elsewhere = "";
const QUERY = `query ($model: String!) { model(name: $model) { name revision } }`;
const SUBSCRIPTION = `subscription ($model: String!) { changes(model: $model) { type revision } }`;

interface Refusal {
  code: unknown;
  message: string;
}
const refusals = (errors: readonly { message: string; extensions?: { code?: unknown } }[] | undefined): Refusal[] =>
  (errors ?? []).map((e) => ({ code: e.extensions?.code, message: e.message }));

beforeAll(async () => {
  const mine = (await live.newModel()).name;
  elsewhere = (await live.newModel()).name;
  const issued = await live.ok(`mutation ($input: IssueTokenInput!) { issueToken(input: $input) { token } }`, {
    input: { role: "READ_ONLY", description: "transports", models: [mine] },
  });
  token = issued.issueToken.token;
});

async function overHttp(method: "GET" | "POST", accept: string, query: string): Promise<Refusal[]> {
  const variables = { model: elsewhere };
  const url = new URL(live.url);
  if (method === "GET") {
    url.searchParams.set("query", query);
    url.searchParams.set("variables", JSON.stringify(variables));
  }
  const response = await fetch(url, {
    method,
    headers: { accept, authorization: `Bearer ${token}`, ...(method === "POST" ? { "content-type": "application/json" } : {}) },
    ...(method === "POST" ? { body: JSON.stringify({ query, variables }) } : {}),
  });
  const text = await response.text();
  // SSE: the first event's data; JSON: the body.
  const body = accept === "text/event-stream" ? /^data: (.*)$/m.exec(text)?.[1] : text;
  return refusals(JSON.parse(body ?? "{}").errors);
}

function overWebSocket(query: string): Promise<Refusal[]> {
  const client = createClient({
    url: live.url.replace(/^http/, "ws"),
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${token}` },
  });
  return new Promise<Refusal[]>((resolve, reject) => {
    client.subscribe(
      { query, variables: { model: elsewhere } },
      {
        next: (result) => resolve(refusals(result.errors)),
        error: (error) => (Array.isArray(error) ? resolve(refusals(error)) : reject(error)),
        complete: () => resolve([]),
      },
    );
  }).finally(() => client.dispose());
}

describe("a refusal is the same on every transport", () => {
  it("a query about a model the token does not reach: FORBIDDEN over HTTP POST and GET, SSE and graphql-ws", async () => {
    const post = await overHttp("POST", "application/json", QUERY);
    expect(post.map((r) => r.code)).toEqual(["FORBIDDEN"]);
    expect(await overHttp("GET", "application/json", QUERY)).toEqual(post);
    expect(await overHttp("POST", "text/event-stream", QUERY)).toEqual(post);
    expect(await overWebSocket(QUERY)).toEqual(post);
  });

  it("a subscription to a model the token does not reach: FORBIDDEN over SSE and graphql-ws, before any event", async () => {
    const sse = await overHttp("POST", "text/event-stream", SUBSCRIPTION);
    expect(sse.map((r) => r.code)).toEqual(["FORBIDDEN"]);
    expect(await overWebSocket(SUBSCRIPTION)).toEqual(sse);
  });
});
