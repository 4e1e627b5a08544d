// Calls of several agents in one request (docs/decisions.md, "Gathered at the slot"): the agents one process hosts
// send their calls of one field together, as its bulk form, each item checked against its own agent's token
// (`extensions.authorizations`, in the items' order). Nothing is allowed that the agents' own calls would not be, and
// a refusal refuses the whole call, changing nothing.
import { describe, expect, it } from "vitest";
import { useApi } from "./support/api.js";
import { ADD_MACHINE, deploy, integrate } from "./support/fixtures.js";
import { lifecycle } from "./support/lifecycle.js";

const api = useApi();

const ISSUE = `mutation ($input: AgentMachinesInput!) { issueMachinesCredentials(input: $input) { tag token } }`;
const STATUSES = `mutation ($input: MachinesStatusInput!) { setMachinesStatus(input: $input) { id status { current } } }`;
const MACHINES = `query ($model: String!) { model(name: $model) { machines(first: 100) { edges { node { id status { current } } } } } }`;

/** A model with machines 1 to 3, and their agents' tokens by machine. */
async function scene() {
  const model = await api.newModel();
  for (let i = 0; i < 3; i++) await api.ok(ADD_MACHINE, { input: { model } });
  const issued = (await api.ok(ISSUE, { input: { model, machines: ["1", "2", "3"] } })).issueMachinesCredentials;
  const token = Object.fromEntries(issued.map((c: { tag: string; token: string }) => [c.tag.slice("machine-".length), c.token]));
  const statuses = async () =>
    Object.fromEntries((await api.ok(MACHINES, { model })).model.machines.edges.map((e: any) => [e.node.id, e.node.status.current]));
  return { model, token, statuses };
}

const bearer = (token: string) => `Bearer ${token}`;

describe("setMachinesStatus for several machine agents", () => {
  it("sets each machine's status, each item checked against its own agent's token", async () => {
    const { model, token, statuses } = await scene();
    const result = await api.requestAs(
      token["3"]!,
      STATUSES,
      {
        input: {
          model,
          machines: [
            { machine: "3", status: "STARTED" },
            { machine: "1", status: "STARTED" },
          ],
        },
      },
      { authorizations: [bearer(token["3"]!), bearer(token["1"]!)] },
    );
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    expect(result.data?.setMachinesStatus.map((m: { id: string }) => m.id)).toEqual(["3", "1"]);
    expect(await statuses()).toMatchObject({ "1": "started", "2": "pending", "3": "started" });
  });

  it("is FORBIDDEN, changing nothing, when one item's token is not its machine's agent's", async () => {
    const { model, token, statuses } = await scene();
    const result = await api.requestAs(
      token["1"]!,
      STATUSES,
      {
        input: {
          model,
          machines: [
            { machine: "1", status: "STARTED" },
            { machine: "2", status: "STARTED" },
          ],
        },
      },
      { authorizations: [bearer(token["1"]!), bearer(token["3"]!)] },
    );
    expect(result.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(await statuses()).toMatchObject({ "1": "pending", "2": "pending", "3": "pending" });
  });

  it("is FORBIDDEN when the tokens do not match the items one for one, or are not a list of bearer tokens", async () => {
    const { model, token, statuses } = await scene();
    const input = {
      model,
      machines: [
        { machine: "1", status: "STARTED" },
        { machine: "2", status: "STARTED" },
      ],
    };
    for (const authorizations of [[bearer(token["1"]!)], [bearer(token["1"]!), bearer(token["2"]!), bearer(token["3"]!)], "nope", [7, 8]]) {
      const result = await api.requestAs(token["1"]!, STATUSES, { input }, { authorizations });
      expect(result.errors?.[0]?.extensions?.code, JSON.stringify(authorizations)).toBe("FORBIDDEN");
    }
    expect(await statuses()).toMatchObject({ "1": "pending", "2": "pending" });
  });

  it("without the list, one agent's own credentials must reach every machine", async () => {
    const { model, token } = await scene();
    const input = {
      model,
      machines: [
        { machine: "1", status: "STARTED" },
        { machine: "2", status: "STARTED" },
      ],
    };
    expect((await api.requestAs(token["1"]!, STATUSES, { input })).errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    // The provisioner's reach every machine of its model.
    expect((await api.request(STATUSES, { input })).errors).toBeUndefined();
  });

  it("refuses the whole call, changing nothing, for a machine named twice (INVALID_ARGUMENT) or one not found (NOT_FOUND)", async () => {
    const { model, statuses } = await scene();
    const twice = {
      model,
      machines: [
        { machine: "1", status: "STARTED" },
        { machine: "1", status: "STARTED" },
      ],
    };
    expect(await api.refused("INVALID_ARGUMENT", STATUSES, { input: twice })).toBeDefined();
    const gone = {
      model,
      machines: [
        { machine: "1", status: "STARTED" },
        { machine: "9", status: "STARTED" },
      ],
    };
    expect(await api.refused("NOT_FOUND", STATUSES, { input: gone })).toBeDefined();
    expect(await statuses()).toMatchObject({ "1": "pending" });
  });
});

const ISSUE_UNITS = `mutation ($input: AgentUnitsInput!) {
  issueUnitsCredentials(input: $input) { tag token startup { allocating relationsInScope hooks { name } } }
}`;
const WHO = `{ viewer { tag } }`;

/** wordpress/0 and /1, on machines 1 and 2, and their machines' agents' tokens. */
async function deployed() {
  const model = await api.newModel();
  await deploy(api, model, { charm: "wordpress", numUnits: 2 });
  const issued = (await api.ok(ISSUE, { input: { model, machines: ["1", "2"] } })).issueMachinesCredentials;
  const token = Object.fromEntries(issued.map((c: { tag: string; token: string }) => [c.tag.slice("machine-".length), c.token]));
  return { model, token };
}

describe("issueUnitsCredentials for several deployers", () => {
  it("issues each unit's agent a secret and its start-up, each item checked against its own deployer's token", async () => {
    const { model, token } = await deployed();
    const result = await api.requestAs(
      token["2"]!,
      ISSUE_UNITS,
      { input: { model, units: ["wordpress/1", "wordpress/0"] } },
      { authorizations: [bearer(token["2"]!), bearer(token["1"]!)] },
    );
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    const issued = result.data!.issueUnitsCredentials;
    expect(issued.map((c: { tag: string }) => c.tag)).toEqual(["unit-wordpress-1", "unit-wordpress-0"]);
    for (const credentials of issued) {
      expect(credentials.startup).toMatchObject({ allocating: true, relationsInScope: [] });
      expect(credentials.startup.hooks.length).toBeGreaterThan(0);
      expect((await api.requestAs(credentials.token, WHO)).data?.viewer.tag).toBe(credentials.tag);
    }
  });

  it("is FORBIDDEN, issuing nothing, when one unit is not its item's deployer's", async () => {
    const { model, token } = await deployed();
    const first = (await api.ok(ISSUE_UNITS, { input: { model, units: ["wordpress/0"] } })).issueUnitsCredentials[0];
    const result = await api.requestAs(
      token["1"]!,
      ISSUE_UNITS,
      { input: { model, units: ["wordpress/0", "wordpress/1"] } },
      { authorizations: [bearer(token["1"]!), bearer(token["1"]!)] },
    );
    expect(result.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    // The secret issued before still works: nothing was rotated.
    expect((await api.requestAs(first.token, WHO)).data?.viewer.tag).toBe("unit-wordpress-0");
  });

  it("refuses the whole call, rotating nothing, for a Dead unit (NOT_ALIVE), one named twice (INVALID_ARGUMENT) or one not found (NOT_FOUND)", async () => {
    const { model } = await deployed();
    const first = (await api.ok(ISSUE_UNITS, { input: { model, units: ["wordpress/0"] } })).issueUnitsCredentials[0];
    await lifecycle(api, model).setUnitDead("wordpress/1");
    expect(
      (await api.refused("NOT_ALIVE", ISSUE_UNITS, { input: { model, units: ["wordpress/0", "wordpress/1"] } })).extensions,
    ).toBeDefined();
    expect(await api.refused("INVALID_ARGUMENT", ISSUE_UNITS, { input: { model, units: ["wordpress/0", "wordpress/0"] } })).toBeDefined();
    expect(await api.refused("NOT_FOUND", ISSUE_UNITS, { input: { model, units: ["wordpress/0", "wordpress/9"] } })).toBeDefined();
    expect((await api.requestAs(first.token, WHO)).data?.viewer.tag).toBe("unit-wordpress-0");
  });
});

const ENTER_SCOPES = `mutation ($input: EnterScopesInput!) {
  enterScopes(input: $input) { member { unitName role } subordinateCreated { name } }
}`;
const RELATION = `query ($model: String!, $id: Int!) {
  model(name: $model) { relation(id: $id) { unitCount members { unitName } settings(unit: "wordpress/0") { version values { key value } } } }
}`;

/** wordpress/0 and /1 related to mysql/0, and each unit agent's token. */
async function related() {
  const model = await api.newModel();
  await deploy(api, model, { charm: "wordpress", numUnits: 2 });
  await deploy(api, model, { charm: "mysql", numUnits: 1 });
  const relation = (await integrate(api, model, "wordpress", "mysql")).id as number;
  const issued = (await api.ok(ISSUE_UNITS, { input: { model, units: ["wordpress/0", "wordpress/1", "mysql/0"] } })).issueUnitsCredentials;
  const token = Object.fromEntries(issued.map((c: { tag: string; token: string }) => [c.tag, c.token])) as Record<string, string>;
  const scope = async () => (await api.ok(RELATION, { model, id: relation })).model.relation;
  const entry = (unit: string, privateAddress = "10.0.0.1") => ({ unit, privateAddress });
  return { model, relation, token, scope, entry };
}

describe("enterScopes for several unit agents", () => {
  it("enters each unit, writing its address, each item checked against its own agent's token", async () => {
    const { model, relation, token, scope, entry } = await related();
    const result = await api.requestAs(
      token["unit-mysql-0"]!,
      ENTER_SCOPES,
      { input: { model, relation, units: [entry("mysql/0", "10.0.0.9"), entry("wordpress/0")] } },
      { authorizations: [bearer(token["unit-mysql-0"]!), bearer(token["unit-wordpress-0"]!)] },
    );
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    expect(result.data?.enterScopes).toEqual([
      { member: { unitName: "mysql/0", role: "PROVIDER" }, subordinateCreated: null },
      { member: { unitName: "wordpress/0", role: "REQUIRER" }, subordinateCreated: null },
    ]);
    const after = await scope();
    expect(after.unitCount).toBe(2);
    expect(after.members.map((m: { unitName: string }) => m.unitName).sort()).toEqual(["mysql/0", "wordpress/0"]);
    expect(after.settings).toEqual({
      version: 1,
      values: [
        { key: "ingress-address", value: "10.0.0.1" },
        { key: "private-address", value: "10.0.0.1" },
      ],
    });
  });

  it("leaves a unit in the scope already as it is, and enters the others (entering again is a no-op)", async () => {
    const { model, relation, scope, entry } = await related();
    await api.ok(ENTER_SCOPES, { input: { model, relation, units: [entry("wordpress/0")] } });
    const result = await api.ok(ENTER_SCOPES, {
      input: { model, relation, units: [entry("wordpress/0", "10.0.0.7"), entry("wordpress/1")] },
    });
    expect(result.enterScopes.map((c: { member: { unitName: string } }) => c.member.unitName)).toEqual(["wordpress/0", "wordpress/1"]);
    const after = await scope();
    expect(after.unitCount).toBe(2);
    // Its settings were not written again.
    expect(after.settings.version).toBe(1);
  });

  it("is FORBIDDEN, entering nothing, when one unit is not its item's agent's", async () => {
    const { model, relation, token, scope, entry } = await related();
    const result = await api.requestAs(
      token["unit-wordpress-0"]!,
      ENTER_SCOPES,
      { input: { model, relation, units: [entry("wordpress/0"), entry("wordpress/1")] } },
      { authorizations: [bearer(token["unit-wordpress-0"]!), bearer(token["unit-wordpress-0"]!)] },
    );
    expect(result.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect((await scope()).unitCount).toBe(0);
  });

  it("refuses the whole call, entering nothing, at the first refusal in the units' order", async () => {
    const { model, relation, scope, entry } = await related();
    const enter = (units: unknown[]) => ({ input: { model, relation, units } });
    expect(
      (await api.refused("INVALID_ARGUMENT", ENTER_SCOPES, enter([entry("wordpress/0"), entry("wordpress/1", "not an address")]))).message,
    ).toMatch(/not an IP address or host name/);
    expect(await api.refused("INVALID_ARGUMENT", ENTER_SCOPES, enter([entry("wordpress/0"), entry("wordpress/0")]))).toBeDefined();
    expect(await api.refused("INVALID_ARGUMENT", ENTER_SCOPES, enter([]))).toBeDefined();
    expect(await api.refused("NOT_FOUND", ENTER_SCOPES, enter([entry("wordpress/0"), entry("wordpress/9")]))).toBeDefined();
    await lifecycle(api, model).setUnitDead("wordpress/1");
    expect(await api.refused("NOT_ALIVE", ENTER_SCOPES, enter([entry("wordpress/0"), entry("wordpress/1")]))).toBeDefined();
    expect((await scope()).unitCount).toBe(0);
  });
});

const UNITS_DEAD = `mutation ($input: AgentUnitsInput!) { setUnitsDead(input: $input) { name life } }`;
const LIVES = `query ($model: String!) { model(name: $model) { units(first: 100) { edges { node { name life } } } } }`;

describe("setUnitsDead for several unit agents", () => {
  const lives = async (model: string) =>
    Object.fromEntries((await api.ok(LIVES, { model })).model.units.edges.map((e: any) => [e.node.name, e.node.life]));

  it("sets each unit Dead, each item checked against its own agent's token", async () => {
    const { model, token } = await related();
    const result = await api.requestAs(
      token["unit-wordpress-1"]!,
      UNITS_DEAD,
      { input: { model, units: ["wordpress/1", "wordpress/0"] } },
      { authorizations: [bearer(token["unit-wordpress-1"]!), bearer(token["unit-wordpress-0"]!)] },
    );
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    expect(result.data?.setUnitsDead).toEqual([
      { name: "wordpress/1", life: "DEAD" },
      { name: "wordpress/0", life: "DEAD" },
    ]);
    expect(await lives(model)).toEqual({ "wordpress/0": "DEAD", "wordpress/1": "DEAD", "mysql/0": "ALIVE" });
  });

  it("is FORBIDDEN, setting nothing Dead, when one unit is not its item's agent's", async () => {
    const { model, token } = await related();
    const result = await api.requestAs(
      token["unit-wordpress-0"]!,
      UNITS_DEAD,
      { input: { model, units: ["wordpress/0", "mysql/0"] } },
      { authorizations: [bearer(token["unit-wordpress-0"]!), bearer(token["unit-wordpress-0"]!)] },
    );
    expect(result.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(await lives(model)).toEqual({ "wordpress/0": "ALIVE", "wordpress/1": "ALIVE", "mysql/0": "ALIVE" });
  });

  it("seed 001: refuses the whole call, setting nothing Dead, while one unit is still in a relation's scope (IN_SCOPE)", async () => {
    const { model, relation, entry } = await related();
    await api.ok(ENTER_SCOPES, { input: { model, relation, units: [entry("wordpress/1")] } });
    const refused = await api.refused("IN_SCOPE", UNITS_DEAD, { input: { model, units: ["wordpress/0", "wordpress/1"] } });
    expect(refused.message).toMatch(/wordpress\/1/);
    expect(await lives(model)).toEqual({ "wordpress/0": "ALIVE", "wordpress/1": "ALIVE", "mysql/0": "ALIVE" });
  });

  it("leaves a Dead unit as it is, and refuses a unit named twice (INVALID_ARGUMENT) or not found (NOT_FOUND)", async () => {
    const { model } = await related();
    await api.ok(UNITS_DEAD, { input: { model, units: ["wordpress/0"] } });
    expect((await api.ok(UNITS_DEAD, { input: { model, units: ["wordpress/0", "wordpress/1"] } })).setUnitsDead).toEqual([
      { name: "wordpress/0", life: "DEAD" },
      { name: "wordpress/1", life: "DEAD" },
    ]);
    expect(await api.refused("INVALID_ARGUMENT", UNITS_DEAD, { input: { model, units: ["mysql/0", "mysql/0"] } })).toBeDefined();
    expect(await api.refused("NOT_FOUND", UNITS_DEAD, { input: { model, units: ["mysql/0", "mysql/9"] } })).toBeDefined();
    expect((await lives(model))["mysql/0"]).toBe("ALIVE");
  });
});

const REMOVE_DEAD = `mutation ($input: AgentUnitsInput!) { removeDeadUnits(input: $input) }`;
const APPLICATION = `query ($model: String!) { model(name: $model) { application(name: "wordpress") { life unitCount } units(first: 100) { edges { node { name } } } } }`;

describe("removeDeadUnits for several deployers", () => {
  const state = async (model: string) => {
    const { application, units } = (await api.ok(APPLICATION, { model })).model;
    return { application, units: units.edges.map((e: any) => e.node.name).sort() };
  };

  it("removes each Dead unit, each item checked against its own deployer's token", async () => {
    const { model, token } = await deployed();
    for (const unit of ["wordpress/0", "wordpress/1"]) await lifecycle(api, model).setUnitDead(unit);
    const result = await api.requestAs(
      token["2"]!,
      REMOVE_DEAD,
      { input: { model, units: ["wordpress/1", "wordpress/0"] } },
      { authorizations: [bearer(token["2"]!), bearer(token["1"]!)] },
    );
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    expect(await state(model)).toEqual({ application: { life: "ALIVE", unitCount: 0 }, units: [] });
  });

  it("seed 000: the last units of a Dying application, removed in one call, take it with them", async () => {
    const { model } = await deployed();
    await api.ok(`mutation ($input: RemoveApplicationInput!) { removeApplication(input: $input) { outcome } }`, {
      input: { model, applications: ["wordpress"] },
    });
    for (const unit of ["wordpress/0", "wordpress/1"]) await lifecycle(api, model).setUnitDead(unit);
    await api.ok(REMOVE_DEAD, { input: { model, units: ["wordpress/0", "wordpress/1"] } });
    expect(await api.refused("NOT_FOUND", APPLICATION, { model })).toBeDefined();
  });

  it("is FORBIDDEN, removing nothing, when one unit is not its item's deployer's", async () => {
    const { model, token } = await deployed();
    for (const unit of ["wordpress/0", "wordpress/1"]) await lifecycle(api, model).setUnitDead(unit);
    const result = await api.requestAs(
      token["1"]!,
      REMOVE_DEAD,
      { input: { model, units: ["wordpress/0", "wordpress/1"] } },
      { authorizations: [bearer(token["1"]!), bearer(token["1"]!)] },
    );
    expect(result.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect((await state(model)).units).toEqual(["wordpress/0", "wordpress/1"]);
  });

  it("refuses the whole call, removing nothing, for a unit not Dead (NOT_DEAD), named twice or not found", async () => {
    const { model } = await deployed();
    await lifecycle(api, model).setUnitDead("wordpress/0");
    expect(await api.refused("NOT_DEAD", REMOVE_DEAD, { input: { model, units: ["wordpress/0", "wordpress/1"] } })).toBeDefined();
    expect(await api.refused("INVALID_ARGUMENT", REMOVE_DEAD, { input: { model, units: ["wordpress/0", "wordpress/0"] } })).toBeDefined();
    expect(await api.refused("NOT_FOUND", REMOVE_DEAD, { input: { model, units: ["wordpress/0", "wordpress/9"] } })).toBeDefined();
    expect(await state(model)).toEqual({ application: { life: "ALIVE", unitCount: 2 }, units: ["wordpress/0", "wordpress/1"] });
  });
});

const MACHINES_DEAD = `mutation ($input: AgentMachinesInput!) { setMachinesDead(input: $input) { id life status { current } } }`;
const MACHINE_LIVES = `query ($model: String!) { model(name: $model) { machines(first: 100) { edges { node { id life } } } } }`;

describe("setMachinesDead for several machine agents", () => {
  const lives = async (model: string) =>
    Object.fromEntries((await api.ok(MACHINE_LIVES, { model })).model.machines.edges.map((e: any) => [e.node.id, e.node.life]));

  it("sets each machine Dead, a started one stopped with it, each item checked against its own agent's token", async () => {
    const { model, token } = await scene();
    await api.ok(STATUSES, { input: { model, machines: [{ machine: "3", status: "STARTED" }] } });
    const result = await api.requestAs(
      token["3"]!,
      MACHINES_DEAD,
      { input: { model, machines: ["3", "1"] } },
      { authorizations: [bearer(token["3"]!), bearer(token["1"]!)] },
    );
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    expect(result.data?.setMachinesDead).toEqual([
      { id: "3", life: "DEAD", status: { current: "stopped" } },
      { id: "1", life: "DEAD", status: { current: "pending" } },
    ]);
    expect(await lives(model)).toMatchObject({ "1": "DEAD", "2": "ALIVE", "3": "DEAD" });
  });

  it("is FORBIDDEN, setting nothing Dead, when one machine is not its item's agent's", async () => {
    const { model, token } = await scene();
    const result = await api.requestAs(
      token["1"]!,
      MACHINES_DEAD,
      { input: { model, machines: ["1", "2"] } },
      { authorizations: [bearer(token["1"]!), bearer(token["1"]!)] },
    );
    expect(result.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(await lives(model)).toMatchObject({ "1": "ALIVE", "2": "ALIVE" });
  });

  it("seed 001: refuses the whole call, setting nothing Dead, while a machine has a unit assigned (HAS_UNITS)", async () => {
    const { model } = await deployed();
    await api.ok(ADD_MACHINE, { input: { model } });
    const refused = await api.refused("HAS_UNITS", MACHINES_DEAD, { input: { model, machines: ["3", "1"] } });
    expect(refused.message).toMatch(/wordpress\/0/);
    expect(await lives(model)).toMatchObject({ "1": "ALIVE", "3": "ALIVE" });
    expect(await api.refused("INVALID_ARGUMENT", MACHINES_DEAD, { input: { model, machines: ["3", "3"] } })).toBeDefined();
    expect(await api.refused("NOT_FOUND", MACHINES_DEAD, { input: { model, machines: ["3", "9"] } })).toBeDefined();
  });
});
