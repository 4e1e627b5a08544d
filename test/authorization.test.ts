// Credentials and who may do what (seed 001 "Agents"; Juju's API authorizers):
// every identity kind against every operation, on an entity of its own and on
// someone else's. A refusal is UNAUTHENTICATED without (working) credentials and
// FORBIDDEN outside the caller's responsibility, and changes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { useApi } from "./support/api.js";
import { ADD_MACHINE, deploy, integrate } from "./support/fixtures.js";
import { lifecycle } from "./support/lifecycle.js";

// Of its own: its controller runs every model's cleanups (runCleanupsEverywhere), which on a shared PostgreSQL database
// would run other files' cleanups under them.
const api = useApi({ store: "private" });

type Who =
  | "anonymous"
  | "unknown token"
  | "revoked token"
  | "read-only"
  | "operator"
  | "admin"
  | "operator of this model"
  | "operator of the other model"
  | "unit agent"
  | "machine agent"
  | "host agent"
  | "provisioner"
  | "dead machine's agent";
const everyone: Who[] = [
  "anonymous",
  "unknown token",
  "revoked token",
  "read-only",
  "operator",
  "admin",
  "operator of this model",
  "operator of the other model",
  "unit agent",
  "machine agent",
  "host agent",
  "provisioner",
  "dead machine's agent",
];
const agents = ["unit agent", "machine agent", "host agent", "provisioner"] as const;
type Agent = (typeof agents)[number];
const locked: Who[] = ["anonymous", "unknown token", "revoked token", "dead machine's agent"];

/**
 * The scene, in a model of its own:
 * - machine 0 (JobManageModel): the provisioner's;
 * - machine 1 hosts wordpress/0 and wordpress/1; wordpress/0 is in the scope of the
 *   logging relation, so it has the subordinate logging/0;
 * - machine 2 hosts mysql/0, which is in the scope of the db relation;
 * - machine 3 hosts the container 3/lxd/0, which hosts wordpress/2;
 * - machine 4 is Dead (its agent's token no longer works).
 * Every allowed call below is one the model itself then refuses or that changes
 * nothing that matters, so the scene stays as it is from row to row.
 */
let model = "";
/** Another model: the provisioner's responsibility ends at its own model. */
let otherModel = "";
let db = 0;
let log = 0;
const tokens = {} as Record<Exclude<Who, "anonymous">, string>;

interface Operation {
  query: string;
  /** Who may, on their own entity ("own"); operators and admins may anyway, unless `adminOnly`. */
  responsible?: readonly Agent[];
  adminOnly?: boolean;
  /** The controller's, not a model's: for people whose token reaches every model. */
  controller?: boolean;
  /** A read: every valid identity may. */
  read?: boolean;
  /** The variables, for each responsible agent's own entity (`own`) and for an entity nobody here is responsible for (`other`). */
  variables: (target: "own" | "other", who: Who) => Record<string, unknown>;
}

const input = (i: Record<string, unknown>) => ({ input: { model, ...i } });
/** A machine in another model: nobody here is responsible for it. */
const elsewhere = () => ({ input: { model: otherModel, machine: "0" } });
/** The unit each kind of agent deploys, and the machine each acts for. */
const deployed: Partial<Record<Who, string>> = { "machine agent": "wordpress/1", "unit agent": "logging/0" };
const machineOf: Partial<Record<Who, string>> = { "machine agent": "1", "host agent": "3/lxd/0", provisioner: "2" };

const operations: Record<string, Operation> = {
  // Reads.
  status: { read: true, query: `query ($model: String!) { model(name: $model) { revision } }`, variables: () => ({ model }) },
  viewer: { read: true, query: `{ viewer { kind tag } }`, variables: () => ({}) },
  tokens: { adminOnly: true, query: `{ tokens { id } }`, variables: () => ({}) },
  // People's operations (inputs the model refuses after the check, so nothing changes when allowed).
  addModel: {
    controller: true,
    query: `mutation ($input: AddModelInput!) { addModel(input: $input) { name } }`,
    variables: () => ({ input: { name: "Not A Name" } }),
  },
  addCharm: {
    query: `mutation ($input: AddCharmInput!) { addCharm(input: $input) { url } }`,
    variables: () => input({ metadata: "name: [" }),
  },
  deploy: {
    query: `mutation ($input: DeployInput!) { deploy(input: $input) { name } }`,
    variables: () => input({ charm: "no-such-charm" }),
  },
  addUnit: {
    query: `mutation ($input: AddUnitInput!) { addUnit(input: $input) { name } }`,
    variables: () => input({ application: "nope" }),
  },
  addMachine: {
    query: `mutation ($input: AddMachineInput!) { addMachine(input: $input) { id } }`,
    variables: () => input({ series: "Bad!" }),
  },
  integrate: {
    query: `mutation ($input: IntegrateInput!) { integrate(input: $input) { id } }`,
    variables: () => input({ endpoints: ["wordpress", "mysql"] }),
  },
  setConstraints: {
    query: `mutation ($input: SetConstraintsInput!) { setConstraints(input: $input) { text } }`,
    variables: () => input({ constraints: "mem=lots" }),
  },
  removeMachine: {
    query: `mutation ($input: RemoveMachineInput!) { removeMachine(input: $input) { id } }`,
    variables: () => input({ machines: ["0"] }),
  },
  removeUnit: {
    query: `mutation ($input: RemoveUnitInput!) { removeUnit(input: $input) { id } }`,
    variables: () => input({ units: ["logging/0"] }),
  },
  removeApplication: {
    query: `mutation ($input: RemoveApplicationInput!) { removeApplication(input: $input) { id } }`,
    variables: () => input({ applications: ["nope"] }),
  },
  removeRelation: {
    query: `mutation ($input: RemoveRelationInput!) { removeRelation(input: $input) { id } }`,
    variables: () => input({ relations: ["999"] }),
  },
  destroyModel: { query: `mutation ($name: String!) { destroyModel(name: $name) }`, variables: () => ({ name: "no-such-model" }) },
  destroyModelDryRun: {
    query: `mutation ($name: String!) { destroyModelDryRun(name: $name) { id } }`,
    variables: () => ({ name: "no-such-model" }),
  },
  issueToken: {
    adminOnly: true,
    query: `mutation ($input: IssueTokenInput!) { issueToken(input: $input) { id } }`,
    variables: () => ({ input: { role: "READ_ONLY", description: "matrix" } }),
  },
  revokeToken: { adminOnly: true, query: `mutation ($id: Int!) { revokeToken(id: $id) }`, variables: () => ({ id: -1 }) },
  // The cloud's admin API (no cloud runs in this test's server: NOT_FOUND once allowed).
  cloud: { adminOnly: true, query: `{ cloud { name } }`, variables: () => ({}) },
  failNextStarts: { adminOnly: true, query: `mutation { failNextStarts(count: 1) { failingStarts } }`, variables: () => ({}) },
  refuseConstraints: {
    adminOnly: true,
    query: `mutation { refuseConstraints(constraints: "mem=1G") { refusing } }`,
    variables: () => ({}),
  },
  loseInstance: { adminOnly: true, query: `mutation { loseInstance(id: "dummy-0") { id } }`, variables: () => ({}) },
  // The agents' operations.
  enterScope: {
    responsible: ["unit agent"],
    query: `mutation ($input: EnterScopeInput!) { enterScope(input: $input) { member { unitName } } }`,
    // Entering again is a no-op.
    variables: (target) => input({ relation: log, unit: target === "own" ? "wordpress/0" : "mysql/0", privateAddress: "10.0.0.9" }),
  },
  enterScopes: {
    responsible: ["unit agent"],
    query: `mutation ($input: EnterScopesInput!) { enterScopes(input: $input) { member { unitName } } }`,
    // As enterScope; several agents' calls in one request: test/gathered-agents.test.ts.
    variables: (target) =>
      input({ relation: log, units: [{ unit: target === "own" ? "wordpress/0" : "mysql/0", privateAddress: "10.0.0.9" }] }),
  },
  leaveScope: {
    responsible: ["unit agent"],
    query: `mutation ($input: LeaveScopeInput!) { leaveScope(input: $input) { relationRemoved } }`,
    // Neither is in that relation's scope: leaving it is a no-op.
    variables: (target) => (target === "own" ? input({ relation: db, unit: "wordpress/0" }) : input({ relation: log, unit: "mysql/0" })),
  },
  setUnitDead: {
    // The deployer too: it removes units it never deployed at once.
    responsible: ["unit agent", "machine agent"],
    query: `mutation ($input: UnitTargetInput!) { setUnitDead(input: $input) { name } }`,
    // In a scope: IN_SCOPE.
    variables: (target) => input({ unit: target === "own" ? "wordpress/0" : "mysql/0" }),
  },
  setUnitsDead: {
    responsible: ["unit agent"],
    query: `mutation ($input: AgentUnitsInput!) { setUnitsDead(input: $input) { name } }`,
    // In a scope: IN_SCOPE. Several agents' calls in one request: test/gathered-agents.test.ts.
    variables: (target) => input({ units: [target === "own" ? "wordpress/0" : "mysql/0"] }),
  },
  setUnitAgentStatus: {
    responsible: ["unit agent", "machine agent"],
    query: `mutation ($input: UnitAgentStatusInput!) { setUnitAgentStatus(input: $input) { name } }`,
    variables: (target, who) =>
      input({
        unit: target === "own" ? (who === "unit agent" ? "wordpress/0" : (deployed[who] ?? "wordpress/1")) : "mysql/0",
        status: "IDLE",
      }),
  },
  removeDeadUnit: {
    responsible: ["machine agent", "unit agent"],
    query: `mutation ($input: UnitTargetInput!) { removeDeadUnit(input: $input) }`,
    variables: (target, who) => input({ unit: target === "own" ? (deployed[who] ?? "wordpress/1") : "mysql/0" }),
  },
  removeDeadUnits: {
    responsible: ["machine agent", "unit agent"],
    query: `mutation ($input: AgentUnitsInput!) { removeDeadUnits(input: $input) }`,
    // As removeDeadUnit; several deployers' calls in one request: test/gathered-agents.test.ts.
    variables: (target, who) => input({ units: [target === "own" ? (deployed[who] ?? "wordpress/1") : "mysql/0"] }),
  },
  issueUnitCredentials: {
    responsible: ["machine agent", "unit agent"],
    query: `mutation ($input: AgentUnitInput!) { issueUnitCredentials(input: $input) { tag } }`,
    variables: (target, who) => input({ unit: target === "own" ? (deployed[who] ?? "wordpress/1") : "mysql/0" }),
  },
  issueUnitsCredentials: {
    responsible: ["machine agent", "unit agent"],
    query: `mutation ($input: AgentUnitsInput!) { issueUnitsCredentials(input: $input) { tag } }`,
    // Several deployers' calls in one request: test/gathered-agents.test.ts.
    variables: (target, who) => input({ units: [target === "own" ? (deployed[who] ?? "wordpress/1") : "mysql/0"] }),
  },
  setMachineDead: {
    // The provisioner sets Dying machines that never got an instance Dead.
    responsible: ["machine agent", "host agent", "provisioner"],
    query: `mutation ($input: MachineTargetInput!) { setMachineDead(input: $input) { id } }`,
    // Each has a unit assigned: HAS_UNITS.
    variables: (target, who) => (target === "own" ? input({ machine: machineOf[who] ?? "1" }) : elsewhere()),
  },
  setMachinesDead: {
    responsible: ["machine agent", "host agent"],
    query: `mutation ($input: AgentMachinesInput!) { setMachinesDead(input: $input) { id } }`,
    // Each has a unit assigned: HAS_UNITS. Several agents' calls in one request: test/gathered-agents.test.ts.
    variables: (target, who) =>
      target === "own" ? input({ machines: [machineOf[who] ?? "1"] }) : { input: { model: otherModel, machines: ["0"] } },
  },
  "setMachineDead on machine 2 (no machine agent's here; the provisioner's)": {
    responsible: ["provisioner"],
    query: `mutation ($input: MachineTargetInput!) { setMachineDead(input: $input) { id } }`,
    variables: (target) => (target === "own" ? input({ machine: "2" }) : elsewhere()),
  },
  issueMachineCredentials: {
    responsible: ["provisioner", "host agent"],
    query: `mutation ($input: AgentMachineInput!) { issueMachineCredentials(input: $input) { tag } }`,
    variables: (target, who) =>
      target === "own" ? input({ machine: machineOf[who] ?? "2" }) : { input: { model: otherModel, machine: "0" } },
  },
  issueMachinesCredentials: {
    responsible: ["provisioner"],
    query: `mutation ($input: AgentMachinesInput!) { issueMachinesCredentials(input: $input) { tag } }`,
    variables: (target) => (target === "own" ? input({ machines: ["2"] }) : { input: { model: otherModel, machines: ["0"] } }),
  },
  setMachineStatus: {
    responsible: ["machine agent", "host agent", "provisioner"],
    query: `mutation ($input: MachineStatusInput!) { setMachineStatus(input: $input) { id } }`,
    // Back to pending: harmless here, where no agent runs.
    variables: (target, who) =>
      target === "own"
        ? input({ machine: machineOf[who] ?? "1", status: "PENDING" })
        : { input: { ...elsewhere().input, status: "PENDING" } },
  },
  "setMachineStatus on machine 2 (no machine agent's here; the provisioner's)": {
    responsible: ["provisioner"],
    query: `mutation ($input: MachineStatusInput!) { setMachineStatus(input: $input) { id } }`,
    variables: (target) =>
      target === "own" ? input({ machine: "2", status: "PENDING" }) : { input: { ...elsewhere().input, status: "PENDING" } },
  },
  setMachinesStatus: {
    responsible: ["machine agent", "host agent", "provisioner"],
    query: `mutation ($input: MachinesStatusInput!) { setMachinesStatus(input: $input) { id } }`,
    // Back to pending, as setMachineStatus above; several agents' calls in one request: test/gathered-agents.test.ts.
    variables: (target, who) =>
      target === "own"
        ? input({ machines: [{ machine: machineOf[who] ?? "1", status: "PENDING" }] })
        : { input: { model: otherModel, machines: [{ machine: "0", status: "PENDING" }] } },
  },
  recordStartFailure: {
    responsible: ["provisioner"],
    query: `mutation ($input: StartFailureInput!) { recordStartFailure(input: $input) { id } }`,
    // Machine 4 is Dead: NOT_ALIVE.
    variables: (target) =>
      target === "own"
        ? input({ machine: "4", message: "no capacity" })
        : { input: { model: otherModel, machine: "0", message: "no capacity" } },
  },
  setMachineProvisioned: {
    responsible: ["provisioner"],
    query: `mutation ($input: ProvisionedInput!) { setMachineProvisioned(input: $input) { id } }`,
    // Machine 4 is Dead: NOT_ALIVE.
    variables: (target) =>
      target === "own" ? input({ machine: "4", instanceId: "i-1" }) : { input: { model: otherModel, machine: "0", instanceId: "i-1" } },
  },
  setMachinesProvisioned: {
    responsible: ["provisioner"],
    query: `mutation ($input: MachinesProvisionedInput!) { setMachinesProvisioned(input: $input) { id } }`,
    // Machine 4 is Dead: NOT_ALIVE.
    variables: (target) =>
      target === "own"
        ? input({ machines: [{ machine: "4", instanceId: "i-1" }] })
        : { input: { model: otherModel, machines: [{ machine: "0", instanceId: "i-1" }] } },
  },
  resolveMachine: {
    query: `mutation ($input: ResolveMachineInput!) { resolveMachine(input: $input) { id } }`,
    // Not in error: NOT_IN_ERROR.
    variables: () => input({ machine: "1" }),
  },
  removeDeadMachine: {
    responsible: ["provisioner"],
    query: `mutation ($input: MachineTargetInput!) { removeDeadMachine(input: $input) }`,
    // Not Dead: NOT_DEAD.
    variables: (target) => (target === "own" ? input({ machine: "2" }) : { input: { model: otherModel, machine: "0" } }),
  },
  removeDeadMachines: {
    responsible: ["provisioner"],
    query: `mutation ($input: MachineTargetsInput!) { removeDeadMachines(input: $input) }`,
    // Not Dead: NOT_DEAD.
    variables: (target) => (target === "own" ? input({ machines: ["2"] }) : { input: { model: otherModel, machines: ["0"] } }),
  },
  runCleanups: {
    responsible: ["provisioner"],
    query: `mutation ($model: String) { runCleanups(model: $model) { batches } }`,
    variables: (target) => ({ model: target === "own" ? model : otherModel }),
  },
  runCleanupsEverywhere: { controller: true, query: `mutation { runCleanups { batches } }`, variables: () => ({}) },
  beginHook: {
    responsible: ["unit agent"],
    query: `mutation ($input: BeginHookInput!) { beginHook(input: $input) { id } }`,
    // Not a hook of the charm: INVALID_ARGUMENT.
    variables: (target) => input({ unit: target === "own" ? "wordpress/0" : "mysql/0", hook: "no-such-hook" }),
  },
  commitHook: {
    responsible: ["unit agent"],
    query: `mutation ($input: CommitHookInput!) { commitHook(input: $input) { id } }`,
    // No such run: NOT_FOUND.
    variables: (target) => input({ unit: target === "own" ? "wordpress/0" : "mysql/0", run: "999999999", result: "SUCCEEDED" }),
  },
  logHook: {
    responsible: ["unit agent"],
    query: `mutation ($input: LogHookInput!) { logHook(input: $input) }`,
    // No such run: NOT_FOUND.
    variables: (target) =>
      input({ unit: target === "own" ? "wordpress/0" : "mysql/0", run: "999999999", level: "INFO", message: "matrix" }),
  },
  recordMissingHooks: {
    responsible: ["unit agent"],
    query: `mutation ($input: RecordMissingHooksInput!) { recordMissingHooks(input: $input) { name } }`,
    // A hook the charm ships: INVALID_ARGUMENT.
    variables: (target) => input({ unit: target === "own" ? "wordpress/0" : "mysql/0", hooks: [{ hook: "install" }] }),
  },
  recordUnitsMissingHooks: {
    responsible: ["unit agent"],
    query: `mutation ($input: RecordUnitsMissingHooksInput!) { recordUnitsMissingHooks(input: $input) { name } }`,
    // As recordMissingHooks; several agents' calls in one request: test/gathered-agents.test.ts.
    variables: (target) => input({ units: [{ unit: target === "own" ? "wordpress/0" : "mysql/0", hooks: [{ hook: "install" }] }] }),
  },
  setUnitAgentState: {
    responsible: ["unit agent"],
    query: `mutation ($input: UnitAgentStateInput!) { setUnitAgentState(input: $input) { name } }`,
    // A small document: harmless here, where no agent reads it.
    variables: (target) => input({ unit: target === "own" ? "wordpress/0" : "mysql/0", state: { matrix: true } }),
  },
  setApplicationConfig: {
    query: `mutation ($input: SetApplicationConfigInput!) { setApplicationConfig(input: $input) { name } }`,
    // No such option: INVALID_ARGUMENT.
    variables: () => input({ application: "wordpress", values: [{ key: "no-such-option", value: "1" }] }),
  },
  setModelConfig: {
    query: `mutation ($input: SetModelConfigInput!) { setModelConfig(input: $input) { name } }`,
    // No such model: NOT_FOUND.
    variables: () => ({ input: { model: "no-such-model", automaticallyRetryHooks: false } }),
  },
  resolveUnit: {
    query: `mutation ($input: ResolveUnitInput!) { resolveUnit(input: $input) { name } }`,
    // Not in error: NOT_IN_ERROR.
    variables: () => input({ unit: "wordpress/0" }),
  },
  // Last: the allowed calls make wordpress/0 (and its subordinate) Dying, which no row above may see.
  setUnitDying: {
    responsible: ["unit agent"],
    query: `mutation ($input: UnitTargetInput!) { setUnitDying(input: $input) { name } }`,
    variables: (target) => input({ unit: target === "own" ? "wordpress/0" : "mysql/0" }),
  },
  setWorkloadStatus: {
    responsible: ["unit agent"],
    query: `mutation ($input: WorkloadStatusInput!) { setWorkloadStatus(input: $input) { name } }`,
    variables: (target) => input({ unit: target === "own" ? "wordpress/0" : "mysql/0", status: "ACTIVE", message: "ready" }),
  },
};

/** The model an operation's variables name, if any. */
const modelOf = (variables: Record<string, any>): string | undefined => variables.input?.model ?? variables.model ?? variables.name;

/** What `who` gets for `operation` on its own entity or someone else's: null when allowed. */
function expected(who: Who, operation: Operation, target: "own" | "other"): "UNAUTHENTICATED" | "FORBIDDEN" | null {
  if (locked.includes(who)) return "UNAUTHENTICATED";
  if (who === "operator of this model" || who === "operator of the other model") {
    // An operator within the models its token names, and nothing of the controller's.
    const named = modelOf(operation.variables(target, who));
    if (named === undefined) return operation.read ? null : "FORBIDDEN";
    if (operation.adminOnly || operation.controller) return "FORBIDDEN";
    return named === (who === "operator of this model" ? model : otherModel) ? null : "FORBIDDEN";
  }
  if (operation.read) return null;
  if (who === "admin") return null;
  if (operation.adminOnly) return "FORBIDDEN";
  if (who === "operator") return null;
  if (who === "read-only") return "FORBIDDEN";
  return target === "own" && (operation.responsible ?? []).includes(who as Agent) ? null : "FORBIDDEN";
}

const ISSUE_MACHINE = `mutation ($input: AgentMachineInput!) { issueMachineCredentials(input: $input) { token } }`;
const ISSUE_UNIT = `mutation ($input: AgentUnitInput!) { issueUnitCredentials(input: $input) { token } }`;
const ISSUE_TOKEN = `mutation ($input: IssueTokenInput!) { issueToken(input: $input) { id token } }`;

beforeAll(async () => {
  model = await api.newModel();
  otherModel = await api.newModel();
  const ADD_UNIT = `mutation ($input: AddUnitInput!) { addUnit(input: $input) { name } }`;
  await deploy(api, model, { charm: "wordpress" }); // machine 1
  await api.ok(ADD_UNIT, { input: { model, application: "wordpress", placement: ["1"] } }); // wordpress/1 beside it
  await deploy(api, model, { charm: "mysql" }); // machine 2
  await deploy(api, model, { charm: "logging" });
  db = (await integrate(api, model, "wordpress", "mysql")).id;
  log = (await integrate(api, model, "logging", "wordpress")).id;
  const l = lifecycle(api, model);
  await l.enter(log, "wordpress/0");
  await l.enter(db, "mysql/0"); // so nobody's allowed call can set mysql/0 Dead
  await api.ok(ADD_MACHINE, { input: { model } }); // 3
  await api.ok(ADD_MACHINE, { input: { model, parent: "3", containerType: "LXD" } }); // 3/lxd/0
  await api.ok(ADD_UNIT, { input: { model, application: "wordpress", placement: ["3/lxd/0"] } });
  await api.ok(ADD_MACHINE, { input: { model } }); // 4
  const status = await l.status();
  expect(Object.keys(status.machines).sort()).toEqual(["0", "1", "2", "3", "3/lxd/0", "4"]);
  expect(status.units["wordpress/1"]).toBeDefined();

  const machineToken = async (machine: string) => (await api.ok(ISSUE_MACHINE, input({ machine }))).issueMachineCredentials.token;
  tokens.provisioner = await machineToken("0");
  tokens["machine agent"] = await machineToken("1");
  tokens["host agent"] = await machineToken("3");
  tokens["dead machine's agent"] = await machineToken("4");
  await l.setMachineDead("4");
  tokens["unit agent"] = (await api.ok(ISSUE_UNIT, input({ unit: "wordpress/0" }))).issueUnitCredentials.token;
  const person = async (role: string) => (await api.ok(ISSUE_TOKEN, { input: { role, description: `matrix ${role}` } })).issueToken;
  tokens["read-only"] = (await person("READ_ONLY")).token;
  tokens.operator = (await person("OPERATOR")).token;
  tokens.admin = (await person("ADMIN")).token;
  const operatorOf = async (name: string) =>
    (await api.ok(ISSUE_TOKEN, { input: { role: "OPERATOR", description: `matrix operator of ${name}`, models: [name] } })).issueToken
      .token;
  tokens["operator of this model"] = await operatorOf(model);
  tokens["operator of the other model"] = await operatorOf(otherModel);
  const revoked = await person("OPERATOR");
  await api.ok(`mutation ($id: Int!) { revokeToken(id: $id) }`, { id: revoked.id });
  tokens["revoked token"] = revoked.token;
  tokens["unknown token"] = "llt_not-a-token-anyone-was-given";
});

/**
 * What a refusal must leave as it was: the revisions of this test's two models cover every
 * change to them, and the tokens this test issued are the only ones it could add or revoke.
 * (Other test files add models to a shared database meanwhile, so nothing wider is compared.)
 */
const state = async () => {
  const data = await api.ok(
    `query ($model: String!, $other: String!) { model(name: $model) { revision } other: model(name: $other) { revision } tokens { id description } }`,
    { model, other: otherModel },
  );
  return JSON.stringify({ ...data, tokens: data.tokens.filter((t: { description: string }) => t.description.startsWith("matrix")) });
};

describe("who may do what", () => {
  it("the matrix covers every mutation in the schema", async () => {
    const { __type } = await api.ok(`{ __type(name: "Mutation") { fields { name } } }`);
    const uncovered = __type.fields.map((f: { name: string }) => f.name).filter((name: string) => !(name in operations));
    expect(uncovered).toEqual([]);
  });

  for (const [name, operation] of Object.entries(operations))
    for (const target of ["own", "other"] as const) {
      if (target === "other" && !operation.responsible) continue; // people's operations have no entity of one's own
      it(`${name}${operation.responsible ? ` on ${target === "own" ? "its own" : "another's"} entity` : ""}: ${everyone
        .map((who) => `${who} ${expected(who, operation, target) ?? "allowed"}`)
        .join(", ")}`, async () => {
        for (const who of everyone) {
          const code = expected(who, operation, target);
          const before = await state();
          const result = await api.requestAs(who === "anonymous" ? null : tokens[who], operation.query, operation.variables(target, who));
          const codes = (result.errors ?? []).map((e) => e.extensions?.code);
          if (code) {
            expect(codes, `${who}: ${JSON.stringify(result.errors)}`).toEqual([code]);
            expect(await state(), `${who}'s refused ${name} changed nothing`).toBe(before);
          } else {
            expect(codes, `${who} may ${name}: ${JSON.stringify(result.errors)}`).not.toContain("FORBIDDEN");
            expect(codes).not.toContain("UNAUTHENTICATED");
          }
        }
      });
    }
});

describe("credentials", () => {
  it("an agent's credentials stop working once its entity is Dead", async () => {
    const result = await api.requestAs(tokens["dead machine's agent"], `{ viewer { tag } }`);
    expect(result.errors?.map((e) => e.extensions?.code)).toEqual(["UNAUTHENTICATED"]);
  });

  it("issuing an agent's credentials again replaces them: the old token stops working", async () => {
    const before = (await api.ok(ISSUE_MACHINE, input({ machine: "2" }))).issueMachineCredentials.token;
    expect((await api.requestAs(before, `{ viewer { tag } }`)).data?.viewer.tag).toBe("machine-2");
    await api.ok(ISSUE_MACHINE, input({ machine: "2" }));
    expect((await api.requestAs(before, `{ viewer { tag } }`)).errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });

  it("viewer names the identity: Juju's tags for agents, the role for people", async () => {
    expect((await api.requestAs(tokens["unit agent"], `{ viewer { kind tag role } }`)).data?.viewer).toEqual({
      kind: "unit",
      tag: "unit-wordpress-0",
      role: null,
    });
    expect((await api.requestAs(tokens["read-only"], `{ viewer { kind role } }`)).data?.viewer).toEqual({
      kind: "person",
      role: "READ_ONLY",
    });
  });

  it("a schema introspection needs no credentials (GraphiQL and code generators ask before anyone logs in)", async () => {
    const result = await api.requestAs(null, `{ __schema { queryType { name } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data?.__schema.queryType.name).toBe("Query");
  });
});
