// The API as a client meets it: requests go through yoga's full pipeline
// (parsing, validation, error masking) via its fetch handler.
import type { ExecutionResult } from "graphql";
import { afterAll, beforeAll, expect } from "vitest";
import type { Store } from "../../src/db/connect.js";
import { createYogaApp } from "../../src/server/app.js";
import { ADMIN_TOKEN, openPrivateTestStore, openTestStore, uniqueName } from "./store.js";

export interface GraphQLErrorShape {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

export interface Result<T = any> {
  data?: T | null;
  errors?: GraphQLErrorShape[];
}

export interface Api {
  store: Store;
  /** Runs a GraphQL operation as an admin and returns the raw result. */
  request<T = any>(query: string, variables?: Record<string, unknown>): Promise<Result<T>>;
  /** Runs a GraphQL operation with these credentials (null: none) and returns the raw result. */
  requestAs<T = any>(
    token: string | null,
    query: string,
    variables?: Record<string, unknown>,
    extensions?: Record<string, unknown>,
  ): Promise<Result<T>>;
  /** Posts a request body as given (for bodies JSON.stringify cannot write) as an admin; returns the raw result. */
  raw<T = any>(body: string): Promise<Result<T>>;
  /** Runs an operation that must succeed; returns its data. */
  ok<T = any>(query: string, variables?: Record<string, unknown>): Promise<T>;
  /** Runs an operation that must fail with `code`; returns the error. */
  refused(code: string, query: string, variables?: Record<string, unknown>): Promise<GraphQLErrorShape>;
  /** Creates a fresh model for one test; returns its name. */
  newModel(args?: { defaultSeries?: string; constraints?: string }): Promise<string>;
}

/**
 * `store: "private"`: on PostgreSQL a database no other test file shares, for a spec that acts on every model of its
 * store (runCleanups with no model runs every model's queued cleanups, other files' included).
 */
export function useApi({ store: which = "shared" }: { store?: "shared" | "private" } = {}): Api {
  let store: Store;
  let yoga: ReturnType<typeof createYogaApp>;
  beforeAll(async () => {
    store = await (which === "private" ? openPrivateTestStore() : openTestStore());
    yoga = createYogaApp(store);
  });
  afterAll(async () => {
    await store?.close();
  });

  const api: Api = {
    get store() {
      return store;
    },
    request(query, variables) {
      return api.requestAs(ADMIN_TOKEN, query, variables);
    },
    async requestAs(token, query, variables, extensions) {
      const response = await yoga.fetch("http://lifeline.test/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables, extensions }),
      });
      return (await response.json()) as ExecutionResult as Result;
    },
    async raw(body) {
      const response = await yoga.fetch("http://lifeline.test/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${ADMIN_TOKEN}` },
        body,
      });
      return (await response.json()) as Result;
    },
    async ok(query, variables) {
      const result = await api.request(query, variables);
      expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
      return result.data;
    },
    async refused(code, query, variables) {
      const result = await api.request(query, variables);
      expect(
        result.errors?.map((e) => e.extensions?.code),
        JSON.stringify(result.errors),
      ).toEqual([code]);
      return result.errors![0]!;
    },
    async newModel(args = {}) {
      const name = uniqueName();
      await api.ok(`mutation ($input: AddModelInput!) { addModel(input: $input) { name } }`, { input: { name, ...args } });
      return name;
    },
  };
  return api;
}
