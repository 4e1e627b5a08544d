// Specification of how a stream's events are executed (src/server/shared-execution.ts): by
// graphql-jit, a selection compiled once per document, and with the same answer graphql-js
// gives, errors included; by graphql-js where the compiled form could not keep a rule (a
// type whose isTypeOf scope-auth checks, resolvers given with the call).
import { readdirSync, readFileSync } from "node:fs";
import {
  buildSchema,
  type DocumentNode,
  type ExecutionArgs,
  execute,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  Kind,
  type OperationDefinitionNode,
  parse,
} from "graphql";
import { describe, expect, it } from "vitest";
import { type BookmarkEvent, stateEvent } from "../src/changes/stream-event.js";
import { schema } from "../src/graphql/schema.js";
import { compiledExecution } from "../src/server/shared-execution.js";

const operationsDir = new URL("../schema/operations/", import.meta.url);

/** Every subscription the agents, the CLI and the status page send, with its document. */
const subscriptions = readdirSync(operationsDir)
  .filter((file) => file.endsWith(".graphql"))
  .flatMap((file) => {
    const document = parse(readFileSync(new URL(file, operationsDir), "utf8"));
    return document.definitions
      .filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && d.operation === "subscription")
      .map((d) => ({ name: d.name!.value, document }));
  });

/** Values for every variable those subscriptions take. */
const variableValues = { model: "m", unit: "wordpress/0", machine: "0", application: "wordpress", relation: 1 };
const contextValue = { db: null, actor: { kind: "person", id: 1, role: "admin" } };

const bookmark: BookmarkEvent = {
  type: "bookmark",
  revision: 7,
  committedAt: null,
  kind: null,
  entity: null,
  life: null,
  removed: false,
  fields: {},
};

/** One event of each kind the agents follow, and one whose field no enum can represent. */
const events = [
  stateEvent("unit", "wordpress/0", "alive", {
    application: "wordpress",
    series: "jammy",
    machineId: "0",
    principal: null,
    workloadStatus: "active",
    workloadMessage: "",
    agentStatus: "idle",
    agentMessage: "",
    resolved: null,
  }),
  stateEvent("machine", "0", "alive", { series: "jammy", jobs: ["JobHostUnits"], instanceId: "i-0", status: "started" }),
  stateEvent("application", "wordpress", "dying", { charmUrl: "local:wordpress-1", series: "jammy", unitCount: 2, configVersion: 3 }),
  stateEvent("relation", "1", "alive", {
    key: "wordpress:db mysql:db",
    scope: "global",
    interface: "mysql",
    endpoints: ["wordpress:db", "mysql:db"],
    unitCount: 2,
  }),
  stateEvent("scope", "1:mysql/0", null, { relationId: 1, unit: "mysql/0", application: "mysql", role: "provider", container: null }),
  stateEvent("settings", "1:mysql/0", null, { relationId: 1, unit: "mysql/0", version: 4 }),
  { ...bookmark },
  stateEvent("unit", "wordpress/1", "alive", { application: "wordpress", resolved: "no-such-mode" as never }),
];

const args = (document: DocumentNode, operationName: string): ExecutionArgs => ({
  schema,
  document,
  operationName,
  contextValue,
  variableValues,
});

describe("compiled execution of stream events", () => {
  it("covers every subscription in schema/operations", () => {
    expect(subscriptions.length).toBeGreaterThan(5);
    for (const { name, document } of subscriptions) expect(compiledExecution(args(document, name)), name).not.toBeNull();
  });

  it("answers every event as graphql-js does, errors included", () => {
    for (const { name, document } of subscriptions) {
      const compiled = compiledExecution(args(document, name))!;
      for (const event of events) {
        const byGraphqlJs = execute({ ...args(document, name), rootValue: event });
        expect(JSON.parse(JSON.stringify(compiled.query(event, contextValue, variableValues))), `${name} ${event.kind}`).toEqual(
          JSON.parse(JSON.stringify(byGraphqlJs)),
        );
      }
    }
  });

  it("compiles a document once, however many events it executes", () => {
    const { name, document } = subscriptions[0]!;
    expect(compiledExecution(args(document, name))).toBe(compiledExecution(args(document, name)));
  });

  it("leaves to graphql-js a selection that reaches a type whose isTypeOf checks scopes", () => {
    // graphql-jit calls isTypeOf with the value alone; scope-auth's type checks need the context.
    const guarded = new GraphQLObjectType({ name: "Guarded", fields: { name: { type: GraphQLString } }, isTypeOf: () => true });
    const guardedSchema = new GraphQLSchema({
      query: new GraphQLObjectType({ name: "Query", fields: { ok: { type: GraphQLString } } }),
      subscription: new GraphQLObjectType({ name: "Subscription", fields: { guarded: { type: guarded } } }),
    });
    const document = parse(`subscription S { guarded { name } }`);
    expect(compiledExecution({ schema: guardedSchema, document, operationName: "S" })).toBeNull();
  });

  it("leaves to graphql-js an execution whose resolvers come with the call", () => {
    const plain = buildSchema(`type Query { ok: Boolean } type Subscription { label: String }`);
    const document = parse(`subscription S { label }`);
    expect(compiledExecution({ schema: plain, document, operationName: "S", fieldResolver: () => "x" })).toBeNull();
    expect(compiledExecution({ schema: plain, document, operationName: "S" })).not.toBeNull();
  });
});
