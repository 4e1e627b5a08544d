// Who may read what, generated from the schema: every field of Query, of every entity type and every
// subscription, asked by every kind of caller of an entity of its own, of another in its model, and of the
// same entity in another model. The expectations are Juju's facades, written here once per field (`policy`)
// and independent of src/model/authority.ts: people read all of the models their token reaches, whatever
// their role; a model's manager machine (the provisioner) reads its model; a machine agent its machine and
// the units deployed there; a unit agent its unit, its application and the relations it is in. A field
// without a policy here fails the first test, and a field without a scope cannot build (src/graphql/fenced.ts).
// Mutations have their matrix in test/authorization.test.ts.
import { type GraphQLField, type GraphQLObjectType, getNamedType, isEnumType, isObjectType, isScalarType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChangeFeed, defaultFeedOptions } from "../src/changes/feed.js";
import type { Store } from "../src/db/connect.js";
import { unfenced } from "../src/graphql/fenced.js";
import { schema } from "../src/graphql/schema.js";
import { createYogaApp } from "../src/server/app.js";
import { ADMIN_TOKEN, openTestStore, uniqueName } from "./support/store.js";
import { scaled } from "./support/time-scale.js";

type Role =
  | "anonymous"
  | "admin"
  | "operator"
  | "read-only"
  | "operator of this model"
  | "read-only of the other model"
  | "provisioner"
  | "machine agent"
  | "unit agent"
  | "subordinate's agent";
const roles: Role[] = [
  "anonymous",
  "admin",
  "operator",
  "read-only",
  "operator of this model",
  "read-only of the other model",
  "provisioner",
  "machine agent",
  "unit agent",
  "subordinate's agent",
];
type Target = "own" | "same model" | "other model";
const targets: Target[] = ["own", "same model", "other model"];

/**
 * What a field asks of its caller, in Juju's terms:
 * - model: any credentials that reach the model (its name, its settings);
 * - whole: all of the model (people, the provisioner);
 * - unit, machine, application, relation, charm: that entity's own agents (the unit's and its deployer's; the
 *   machine's; its units' for an application, its charm and the relations it is in) and whoever reads the whole model;
 * - unitState: what a unit agent keeps for itself (its state, its hook runs): its own agent, and whoever reads all;
 * - any: any valid credentials; admin: an admin whose token reaches every model.
 */
type Rule =
  | "any"
  | "admin"
  | "model"
  | "whole"
  | "unit"
  | "unitState"
  | "machine"
  | "application"
  | "relation"
  | "charm"
  | "unitAndApplication";

/** Every field's rule: a type's rule covers its fields unless named here. */
const typeRules: Record<string, Rule> = {
  Model: "model",
  Unit: "unit",
  Machine: "machine",
  Application: "application",
  Relation: "relation",
  Charm: "charm",
  HookRun: "unitState",
};
const fieldRules: Record<string, Rule> = {
  "Query.model": "model",
  "Query.models": "any",
  "Query.viewer": "any",
  "Query.tokens": "admin",
  "Query.cloud": "admin",
  "Model.blockers": "whole",
  "Model.applications": "whole",
  "Model.machines": "whole",
  "Model.units": "whole",
  "Model.relations": "whole",
  "Model.charms": "whole",
  "Model.charm": "whole",
  "Model.hookRuns": "unitState",
  // Hook history, of units alive or removed (issue 35): read as a unit's hook runs are.
  "Model.hookHistory": "unitState",
  "Model.application": "application",
  "Model.unit": "unit",
  "Model.machine": "machine",
  "Model.relation": "relation",
  "Unit.agentState": "unitState",
  "Unit.hookRuns": "unitState",
  "Application.units": "whole",
  "Subscription.changes": "whole",
  "Subscription.unitLife": "unit",
  "Subscription.machineLife": "machine",
  "Subscription.machineUnits": "machine",
  "Subscription.machineAgent": "machine",
  "Subscription.applicationRelations": "application",
  // unitLife and applicationRelations in one stream: both their rules.
  "Subscription.unitAgent": "unitAndApplication",
  "Subscription.relationUnits": "relation",
};

/**
 * A field that leads to other entities also asks, of each it returns, that entity's rule (every entity type checks
 * each object it returns, however reached). What each returns here, by who asks (their variables differ):
 * wordpress/0 is on machine 1 with its subordinate logging/0 and in the relations db and log; a subordinate answers
 * its principal's machine (Juju's AssignedMachineId), so logging/0's is machine 1 too, which its agent, as its
 * principal's, does not read; nothing here has containers. Null: it returns nothing here, so nothing more is asked.
 */
const leadsTo: Record<string, Rule | null | ((role: Role) => Rule | null)> = {
  "Unit.application": "application",
  "Unit.machine": "machine",
  // Only the subordinate's agent asks about a unit with a principal: its principal's unit is not its own.
  "Unit.principal": (role) => (role === "subordinate's agent" ? "whole" : null),
  "Unit.subordinates": "unit",
  "Unit.relationsInScope": "relation",
  "Machine.units": "unit",
  "Machine.containers": null,
  "Machine.parent": null,
  "Application.charm": "charm",
  "Application.relations": "relation",
  "Application.units": "whole",
  "HookRun.unit": "unit",
};

/** How a query reaches an object of each type, and what that path itself asks. */
const paths: Record<string, { open: string; close: string; rules: Rule[] }> = {
  Query: { open: "", close: "", rules: [] },
  Model: { open: "model(name: $model) {", close: "}", rules: ["model"] },
  Unit: { open: "model(name: $model) { unit(name: $unit) {", close: "} }", rules: ["model", "unit"] },
  Machine: { open: "model(name: $model) { machine(id: $machine) {", close: "} }", rules: ["model", "machine"] },
  Application: { open: "model(name: $model) { application(name: $application) {", close: "} }", rules: ["model", "application"] },
  Relation: { open: "model(name: $model) { relation(id: $relation) {", close: "} }", rules: ["model", "relation"] },
  Charm: { open: "model(name: $model) { application(name: $application) { charm {", close: "} } }", rules: ["model", "application"] },
  HookRun: {
    open: "model(name: $model) { unit(name: $unit) { hookRuns(first: 1) { edges { node {",
    close: "} } } } }",
    rules: ["model", "unit", "unitState"],
  },
};

/** The arguments of fields that need some (optional ones are left out). */
const fieldArguments: Record<string, string> = {
  "Query.model": "(name: $model)",
  "Model.application": "(name: $application)",
  "Model.unit": "(name: $unit)",
  "Model.machine": "(id: $machine)",
  "Model.relation": "(id: $relation)",
  "Model.charm": "(url: $charm)",
  "Model.hookRuns": "(unit: $unit)",
  "Model.hookHistory": "(unit: $unit)",
  "Relation.settings": "(unit: $unit)",
};

const people: Role[] = ["admin", "operator", "read-only", "operator of this model", "read-only of the other model"];

/** The policy: whether `role` may read, by `rule`, the entity `target` names. */
function mayRead(role: Role, rule: Rule, target: Target): boolean {
  if (rule === "unitAndApplication") return mayRead(role, "unit", target) && mayRead(role, "application", target);
  if (role === "anonymous") return false;
  if (rule === "any") return true;
  if (rule === "admin") return role === "admin";
  if (role === "read-only of the other model") return target === "other model";
  if (role === "operator of this model") return target !== "other model";
  if (people.includes(role)) return true;
  // Agents, all of them in this model.
  if (target === "other model") return false;
  if (rule === "model" || role === "provisioner") return true;
  if (target !== "own") return false;
  const own: Partial<Record<Role, Rule[]>> = {
    "machine agent": ["machine", "unit"],
    "unit agent": ["unit", "unitState", "application", "charm", "relation"],
    "subordinate's agent": ["unit", "unitState", "application", "charm", "relation"],
  };
  return own[role]?.includes(rule) ?? false;
}

interface Scene {
  model: string;
  db: number;
  log: number;
  cluster: number;
  charm: string;
  tokens: { wordpress: string; mysql: string };
}

let store: Store;
let feed: ChangeFeed;
let yoga: ReturnType<typeof createYogaApp>;
let here: Scene;
let there: Scene;
const tokens = {} as Record<Exclude<Role, "anonymous">, string>;

async function post(token: string | null, query: string, variables: Record<string, unknown> = {}) {
  const response = await yoga.fetch("http://lifeline.test/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };
}

async function ok(query: string, variables: Record<string, unknown> = {}, token = ADMIN_TOKEN) {
  const result = await post(token, query, variables);
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  return result.data;
}

/** The first event of a subscription over SSE, or its errors. */
async function firstEvent(token: string | null, query: string, variables: Record<string, unknown>) {
  const response = await yoga.fetch("http://lifeline.test/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      const data = /^data: (.*)$/m.exec(text);
      if (data) return JSON.parse(data[1]!) as { data?: any; errors?: { extensions?: { code?: string } }[] };
    }
  } finally {
    await reader.cancel();
  }
  throw new Error(`the stream ended without an event: ${text}`);
}

/** Each model holds the same: wordpress/0 on machine 1 with its subordinate logging/0, mysql/0 on machine 2, a hook run each. */
async function scene(): Promise<Scene> {
  const model = uniqueName("authz");
  await ok(`mutation ($name: String!) { addModel(input: { name: $name }) { name } }`, { name: model });
  const input = (fields: Record<string, unknown>) => ({ input: { model, ...fields } });
  for (const charm of ["wordpress", "mysql", "logging"])
    await ok(`mutation ($input: DeployInput!) { deploy(input: $input) { name } }`, input({ charm }));
  const integrate = async (a: string, b: string) =>
    (await ok(`mutation ($input: IntegrateInput!) { integrate(input: $input) { id } }`, input({ endpoints: [a, b] }))).integrate
      .id as number;
  const db = await integrate("wordpress", "mysql");
  const log = await integrate("logging", "wordpress");
  const enter = (relation: number, unit: string) =>
    ok(
      `mutation ($input: EnterScopeInput!) { enterScope(input: $input) { member { unitName } } }`,
      input({ relation, unit, privateAddress: "10.0.0.1" }),
    );
  await enter(log, "wordpress/0");
  await enter(db, "wordpress/0");
  await enter(db, "mysql/0");
  const status = await ok(
    `query ($model: String!) { model(name: $model) { relations { edges { node { id key } } } application(name: "wordpress") { charm { url } } } }`,
    { model },
  );
  const cluster = status.model.relations.edges.find((e: any) => e.node.key === "mysql:cluster").node.id as number;
  const unitToken = async (unit: string) =>
    (await ok(`mutation ($input: AgentUnitInput!) { issueUnitCredentials(input: $input) { token } }`, input({ unit }))).issueUnitCredentials
      .token as string;
  const scene: Scene = {
    model,
    db,
    log,
    cluster,
    charm: status.model.application.charm.url,
    tokens: { wordpress: await unitToken("wordpress/0"), mysql: await unitToken("mysql/0") },
  };
  for (const [unit, token] of [
    ["wordpress/0", scene.tokens.wordpress],
    ["mysql/0", scene.tokens.mysql],
  ] as const) {
    const run = await ok(`mutation ($input: BeginHookInput!) { beginHook(input: $input) { id } }`, input({ unit, hook: "install" }), token);
    await ok(
      `mutation ($input: CommitHookInput!) { commitHook(input: $input) { id } }`,
      input({ unit, run: run.beginHook.id, result: "SUCCEEDED" }),
      token,
    );
  }
  return scene;
}

beforeAll(async () => {
  store = await openTestStore();
  feed = new ChangeFeed(store, { ...defaultFeedOptions, pollIntervalMs: 250 });
  await feed.start();
  yoga = createYogaApp(store, feed);
  here = await scene();
  there = await scene();
  const input = (fields: Record<string, unknown>) => ({ input: { model: here.model, ...fields } });
  const machineToken = async (machine: string) =>
    (await ok(`mutation ($input: AgentMachineInput!) { issueMachineCredentials(input: $input) { token } }`, input({ machine })))
      .issueMachineCredentials.token as string;
  const unitToken = async (unit: string) =>
    (await ok(`mutation ($input: AgentUnitInput!) { issueUnitCredentials(input: $input) { token } }`, input({ unit }))).issueUnitCredentials
      .token as string;
  tokens.provisioner = await machineToken("0");
  tokens["machine agent"] = await machineToken("1");
  tokens["unit agent"] = here.tokens.wordpress;
  tokens["subordinate's agent"] = await unitToken("logging/0");
  const person = async (role: string, models?: string[]) =>
    (
      await ok(`mutation ($input: IssueTokenInput!) { issueToken(input: $input) { token } }`, {
        input: { role, description: `matrix ${role}`, models },
      })
    ).issueToken.token as string;
  tokens.admin = ADMIN_TOKEN;
  tokens.operator = await person("OPERATOR");
  tokens["read-only"] = await person("READ_ONLY");
  tokens["operator of this model"] = await person("OPERATOR", [here.model]);
  tokens["read-only of the other model"] = await person("READ_ONLY", [there.model]);
}, scaled(120_000));

afterAll(async () => {
  await feed?.stop();
  await store?.close();
});

/** The entities a caller asks about: its own (or, for people, this model's first of each), another in its model, or the same in the other model. */
function variablesFor(role: Role, target: Target): Record<string, unknown> {
  const scene = target === "other model" ? there : here;
  if (target === "same model")
    return { model: scene.model, unit: "mysql/0", machine: "2", application: "mysql", relation: scene.cluster, charm: scene.charm };
  const sub = role === "subordinate's agent";
  return {
    model: scene.model,
    unit: sub ? "logging/0" : "wordpress/0",
    machine: "1",
    application: sub ? "logging" : "wordpress",
    relation: sub ? scene.log : scene.db,
    charm: scene.charm,
  };
}

/** A selection that resolves the field and nothing past it (an object's own scope is checked by its own fields). */
function selection(type: GraphQLObjectType, field: GraphQLField<unknown, unknown>): string {
  const named = getNamedType(field.type);
  const args = fieldArguments[`${type.name}.${field.name}`] ?? "";
  const tail = isScalarType(named) || isEnumType(named) ? "" : " { __typename }";
  return `${field.name}${args}${tail}`;
}

const VARIABLES = { model: "String!", unit: "String!", machine: "String!", application: "String!", relation: "Int!", charm: "String!" };

function operation(kind: "query" | "subscription", body: string) {
  const used = Object.entries(VARIABLES).filter(([name]) => new RegExp(`\\$${name}\\b`).test(body));
  const definitions = used.length ? `(${used.map(([name, type]) => `$${name}: ${type}`).join(", ")})` : "";
  return `${kind} ${definitions} { ${body} }`;
}

const ruleOf = (type: string, field: string): Rule | undefined => fieldRules[`${type}.${field}`] ?? typeRules[type];

/** The fields the matrix asks about: Query's, and every field of every entity type. */
const readFields = () =>
  ["Query", ...Object.keys(typeRules)].flatMap((name) => {
    const type = schema.getType(name) as GraphQLObjectType;
    return Object.values(type.getFields()).map((field) => ({ type, field }));
  });

describe("who may read what", () => {
  it("every object type is an entity with its own check or a value of what returns it", () => {
    expect(unfenced(schema)).toEqual([]);
    const entities = Object.values(schema.getTypeMap()).filter(
      (t) => isObjectType(t) && (t.extensions as { pothosOptions?: { authScopes?: unknown } }).pothosOptions?.authScopes,
    );
    expect(entities.map((t) => t.name).sort()).toEqual(Object.keys(typeRules).sort());
  });

  it("the matrix has a rule for every query field, every way into a model's entities and every subscription", () => {
    // A model's own settings take the model's rule; a field that names or lists entities needs its own.
    const entry = (type: GraphQLObjectType, field: GraphQLField<unknown, unknown>) => {
      const returns = getNamedType(field.type).name;
      return (
        type.name === "Query" ||
        (type.name === "Model" && (field.args.length > 0 || returns in typeRules || returns.endsWith("Connection")))
      );
    };
    // Inside an entity, a field that returns entities says what it leads to.
    const leads = (type: GraphQLObjectType, field: GraphQLField<unknown, unknown>) =>
      type.name !== "Query" && type.name !== "Model" && getNamedType(field.type).name in typeRules;
    const subscriptions = Object.keys(schema.getSubscriptionType()!.getFields()).map((name) => `Subscription.${name}`);
    const missing = [
      ...readFields()
        .filter(({ type, field }) => leads(type, field) && !(`${type.name}.${field.name}` in leadsTo))
        .map(({ type, field }) => `${type.name}.${field.name} (leads to)`),
      ...readFields()
        .filter(({ type, field }) => entry(type, field) && !fieldRules[`${type.name}.${field.name}`])
        .map(({ type, field }) => `${type.name}.${field.name}`),
      ...subscriptions.filter((name) => !fieldRules[name]),
    ];
    expect(missing).toEqual([]);
  });

  for (const { type, field } of readFields()) {
    const name = `${type.name}.${field.name}`;
    const rule = ruleOf(type.name, field.name)!;
    it(`${name} (${rule})`, async () => {
      const path = paths[type.name]!;
      const query = operation("query", `${path.open} ${selection(type, field)} ${path.close}`);
      for (const role of roles)
        for (const target of targets) {
          const led = leadsTo[name];
          const onward = typeof led === "function" ? led(role) : led;
          const allowed = [...path.rules, rule, ...(onward ? [onward] : [])].every((r) => mayRead(role, r, target));
          const result = await post(role === "anonymous" ? null : tokens[role], query, variablesFor(role, target));
          const codes = (result.errors ?? []).map((e) => e.extensions?.code);
          const cell = `${role} on ${target}: ${JSON.stringify(result.errors)}`;
          if (role === "anonymous") expect(codes, cell).toEqual(["UNAUTHENTICATED"]);
          else if (!allowed) expect(codes, cell).toContain("FORBIDDEN");
          // The cloud answers NOT_FOUND here, where no agents run one.
          else
            expect(
              codes.filter((c) => c !== "NOT_FOUND" || name !== "Query.cloud"),
              cell,
            ).toEqual([]);
        }
    });
  }

  for (const field of Object.values(schema.getSubscriptionType()!.getFields())) {
    const rule = fieldRules[`Subscription.${field.name}`]!;
    it(`Subscription.${field.name} (${rule})`, async () => {
      const args = field.args
        .filter((a) => a.name !== "since" && a.name !== "kinds" && a.name !== "entities" && a.name !== "life")
        .map((a) => `${a.name}: $${a.name}`);
      const query = operation("subscription", `${field.name}(${args.join(", ")}) { type }`);
      for (const role of roles)
        for (const target of targets) {
          const allowed = mayRead(role, rule, target);
          const result = await firstEvent(role === "anonymous" ? null : tokens[role], query, variablesFor(role, target));
          const codes = (result.errors ?? []).map((e) => e.extensions?.code);
          const cell = `${role} on ${target}: ${JSON.stringify(result.errors)}`;
          if (role === "anonymous") expect(codes, cell).toEqual(["UNAUTHENTICATED"]);
          else if (!allowed) expect(codes, cell).toEqual(["FORBIDDEN"]);
          else expect(result.data?.[field.name]?.type, cell).toMatch(/STATE|BOOKMARK/);
        }
    });
  }
});

describe("no path leads past the caller's reach", () => {
  const refusedAs = async (role: Role, query: string, variables: Record<string, unknown> = {}) => {
    const result = await post(tokens[role as Exclude<Role, "anonymous">], query, { model: here.model, ...variables });
    return (result.errors ?? []).map((e) => e.extensions?.code);
  };

  it("a unit agent reads its application, not its application's other units", async () => {
    await ok(`mutation ($input: AddUnitInput!) { addUnit(input: $input) { name } }`, {
      input: { model: here.model, application: "wordpress", count: 1 },
    });
    const query = `query ($model: String!) { model(name: $model) { application(name: "wordpress") { name units { edges { node { name agentState } } } } } }`;
    expect(await refusedAs("unit agent", query)).toEqual(["FORBIDDEN"]);
  });

  it("a unit agent in a relation reads the relation, not the other application's config", async () => {
    const query = `query ($model: String!, $relation: Int!) { model(name: $model) { relation(id: $relation) { key endpoints { applicationName application { config } } } } }`;
    const codes = await refusedAs("unit agent", query, { relation: here.db });
    expect(codes).toContain("FORBIDDEN");
    const allowed = await post(
      tokens["unit agent"],
      `query ($model: String!, $relation: Int!) { model(name: $model) { relation(id: $relation) { key endpoints { applicationName } settings(unit: "mysql/0") { unit } } } }`,
      { model: here.model, relation: here.db },
    );
    expect(allowed.errors).toBeUndefined();
    expect(allowed.data.model.relation.endpoints.map((e: { applicationName: string }) => e.applicationName).sort()).toEqual([
      "mysql",
      "wordpress",
    ]);
  });

  it("a unit agent does not read its machine (a subordinate's is its principal's), which its machine agent reads; nor a machine agent its units' applications", async () => {
    expect(
      await refusedAs(
        "unit agent",
        `query ($model: String!) { model(name: $model) { unit(name: "wordpress/0") { name machine { id } } } }`,
      ),
    ).toEqual(["FORBIDDEN"]);
    // A subordinate's machine is its principal's: its agent reads it no more than the principal's agent does.
    expect(
      await refusedAs(
        "subordinate's agent",
        `query ($model: String!) { model(name: $model) { unit(name: "logging/0") { name machine { id } } } }`,
      ),
    ).toEqual(["FORBIDDEN"]);
    // Its deployer's machine agent does: the subordinate is deployed there.
    const { data, errors } = await post(
      tokens["machine agent"],
      `query ($model: String!) { model(name: $model) { unit(name: "logging/0") { name machine { id } } } }`,
      { model: here.model },
    );
    expect(errors).toBeUndefined();
    expect(data.model.unit.machine).toEqual({ id: "1" });
    expect(
      await refusedAs(
        "machine agent",
        `query ($model: String!) { model(name: $model) { unit(name: "wordpress/0") { name application { config } } } }`,
      ),
    ).toEqual(["FORBIDDEN"]);
  });

  it("a subordinate's agent does not read its principal's unit (its own unitLife stream names it)", async () => {
    expect(
      await refusedAs(
        "subordinate's agent",
        `query ($model: String!) { model(name: $model) { unit(name: "logging/0") { principal { __typename } } } }`,
      ),
    ).toEqual(["FORBIDDEN"]);
  });

  it("a unit agent reads its own subordinates (it deploys them)", async () => {
    const { data, errors } = await post(
      tokens["unit agent"],
      `query ($model: String!) { model(name: $model) { unit(name: "wordpress/0") { subordinates { name agentStatus { current } } } } }`,
      { model: here.model },
    );
    expect(errors).toBeUndefined();
    expect(data.model.unit.subordinates.map((u: { name: string }) => u.name)).toEqual(["logging/0"]);
  });

  it("a refusal does not tell whether what was asked for exists", async () => {
    const unit = (name: string) =>
      post(tokens["unit agent"], `query ($model: String!, $unit: String!) { model(name: $model) { unit(name: $unit) { name } } }`, {
        model: here.model,
        unit: name,
      });
    const [existing, missing] = [await unit("mysql/0"), await unit("mysql/99")];
    expect(existing.errors?.map((e) => e.extensions?.code)).toEqual(["FORBIDDEN"]);
    expect(missing.errors?.map((e) => [e.extensions?.code, e.message])).toEqual(
      existing.errors?.map((e) => [e.extensions?.code, e.message]),
    );
    const model = (name: string) =>
      post(tokens["read-only of the other model"], `query ($model: String!) { model(name: $model) { name } }`, { model: name });
    const [other, none] = [await model(here.model), await model("no-such-model")];
    expect(other.errors?.map((e) => e.extensions?.code)).toEqual(["FORBIDDEN"]);
    expect(none.errors?.map((e) => [e.extensions?.code, e.message])).toEqual(other.errors?.map((e) => [e.extensions?.code, e.message]));
  });

  it("models lists the models the credentials reach: a token's named models, an agent's own", async () => {
    const names = async (role: Role) =>
      (await post(tokens[role as Exclude<Role, "anonymous">], `{ models(first: 1000) { edges { node { name } } } }`)).data.models.edges.map(
        (e: { node: { name: string } }) => e.node.name,
      );
    expect(await names("read-only of the other model")).toEqual([there.model]);
    expect(await names("operator of this model")).toEqual([here.model]);
    expect(await names("unit agent")).toEqual([here.model]);
    expect(await names("read-only")).toEqual(expect.arrayContaining([here.model, there.model]));
  });
});

describe("tokens for some models", () => {
  const ISSUE = `mutation ($input: IssueTokenInput!) { issueToken(input: $input) { id } }`;
  const refusal = async (input: Record<string, unknown>) => {
    const result = await post(ADMIN_TOKEN, ISSUE, { input: { description: "matrix refusal", ...input } });
    return result.errors?.map((e) => [e.extensions?.code, (e.extensions as { field?: string })?.field]);
  };

  it("an admin token reaches every model: naming models for one is refused", async () => {
    expect(await refusal({ role: "ADMIN", models: [here.model] })).toEqual([["INVALID_ARGUMENT", "models"]]);
  });

  it("a token names at least one model, each by a valid name", async () => {
    expect(await refusal({ role: "OPERATOR", models: [] })).toEqual([["INVALID_ARGUMENT", "models"]]);
    expect((await refusal({ role: "OPERATOR", models: ["Not A Name"] }))?.[0]?.[0]).toBe("INVALID_NAME");
  });

  it("a token may name a model before it exists, and reaches it once it does", async () => {
    const future = uniqueName("later");
    const issued = await ok(`mutation ($input: IssueTokenInput!) { issueToken(input: $input) { token } }`, {
      input: { role: "READ_ONLY", description: "matrix future", models: [future] },
    });
    const token = issued.issueToken.token as string;
    expect((await post(token, `query ($m: String!) { model(name: $m) { name } }`, { m: future })).errors?.[0]?.extensions?.code).toBe(
      "NOT_FOUND",
    );
    await ok(`mutation ($name: String!) { addModel(input: { name: $name }) { name } }`, { name: future });
    expect((await post(token, `query ($m: String!) { model(name: $m) { name } }`, { m: future })).data?.model.name).toBe(future);
  });

  it("viewer and tokens say which models a token reaches", async () => {
    const viewer = await post(tokens["operator of this model"], `{ viewer { role models } }`);
    expect(viewer.data.viewer).toEqual({ role: "OPERATOR", models: [here.model] });
    const listed = await ok(`{ tokens { description models } }`);
    expect(listed.tokens).toContainEqual({ description: "matrix OPERATOR", models: [here.model] });
  });
});
