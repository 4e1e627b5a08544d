// Issue 12, point 3: over graphql-ws, a subscription that cannot be parsed or validated is
// refused for itself alone, with the code yoga gives the same refusal over HTTP. The socket,
// and every other subscription multiplexed on it (a process's agents share one), goes on.
import { type Client, createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { adminHeaders } from "./support/store.js";
import { CHANGES, type StreamEvent, useLiveServer } from "./support/streams.js";
import { scaled } from "./support/time-scale.js";

const live = useLiveServer();
let client: Client;
let closed = false;

beforeAll(() => {
  client = createClient({
    url: live.url.replace(/^http/, "ws"),
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: adminHeaders,
  });
  client.on("closed", () => {
    closed = true;
  });
});
afterAll(() => client.dispose());

/** Subscribes on the shared client; resolves with the errors the subscription is refused with. */
const refusal = (query: string) =>
  new Promise<{ message: string; extensions?: { code?: string } }[]>((resolve, reject) => {
    client.subscribe(
      { query },
      {
        next: () => reject(new Error(`${query}: expected a refusal, got data`)),
        error: (error) => resolve(Array.isArray(error) ? error : [error as never]),
        complete: () => reject(new Error(`${query}: expected a refusal, got complete`)),
      },
    );
  });

describe("a bad subscription on a shared socket", () => {
  it("is refused alone (a syntax error: GRAPHQL_PARSE_FAILED; an unknown field: GRAPHQL_VALIDATION_FAILED); the other subscriptions go on", async () => {
    const model = await live.newModel();
    const events: StreamEvent[] = [];
    const stop = client.subscribe<{ changes: StreamEvent }>(
      { query: CHANGES, variables: { model: model.name, kinds: ["APPLICATION"] } },
      { next: (r) => void (r.data && events.push(r.data.changes)), error: () => {}, complete: () => {} },
    );
    await expect.poll(() => events.some((e) => e.type === "BOOKMARK"), { timeout: scaled(15_000) }).toBe(true);

    const parse = await refusal("subscription { changes(model: ");
    expect(parse.map((e) => e.extensions?.code)).toEqual(["GRAPHQL_PARSE_FAILED"]);
    expect(parse[0]!.message).toMatch(/Syntax Error/);
    const validation = await refusal(`subscription { changes(model: "${model.name}") { nosuchfield } }`);
    expect(validation.map((e) => e.extensions?.code)).toEqual(["GRAPHQL_VALIDATION_FAILED"]);

    await live.ok(`mutation ($model: String!) { deploy(input: { model: $model, charm: "mysql" }) { name } }`, { model: model.name });
    await expect.poll(() => events.some((e) => e.type === "CHANGE" && e.entity === "mysql"), { timeout: scaled(15_000) }).toBe(true);
    expect(closed).toBe(false);
    stop();
  });

  it("two operations and no operationName are refused OPERATION_RESOLUTION_FAILURE, as yoga refuses them over HTTP", async () => {
    const refused = await refusal("query A { __typename } query B { __typename }");
    expect(refused.map((e) => e.extensions?.code)).toEqual(["OPERATION_RESOLUTION_FAILURE"]);
    const over = await fetch(live.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...adminHeaders },
      body: JSON.stringify({ query: "query A { __typename } query B { __typename }" }),
    }).then((r) => r.json());
    expect(over.errors.map((e: { extensions?: { code?: string } }) => e.extensions?.code)).toEqual(["OPERATION_RESOLUTION_FAILURE"]);
  });
});
