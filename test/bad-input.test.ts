// "Bad input gets a clear typed error with a stable extensions.code, and
// nothing changes." Each row is a refusal a new user could meet; the model is
// snapshotted before and after, revision included.
import { beforeAll, describe, expect, it } from "vitest";
import { useApi } from "./support/api.js";
import {
  ADD_CHARM,
  ADD_MACHINE,
  ADD_UNIT,
  DEPLOY,
  deploy,
  INTEGRATE,
  integrate,
  markDying,
  SET_CONSTRAINTS,
  snapshot,
} from "./support/fixtures.js";
import {
  ENTER_SCOPE,
  REMOVE_APPLICATION,
  REMOVE_DEAD_MACHINE,
  REMOVE_DEAD_UNIT,
  REMOVE_MACHINE,
  REMOVE_RELATION,
  REMOVE_UNIT,
  SET_MACHINE_DEAD,
  SET_UNIT_DEAD,
} from "./support/lifecycle.js";
import { onPostgres } from "./support/store.js";

const api = useApi();
let model: string;

beforeAll(async () => {
  model = await api.newModel();
  await deploy(api, model, { charm: "wordpress", constraints: "mem=2G" });
  await deploy(api, model, { charm: "mysql" });
  await deploy(api, model, { charm: "logging" });
  await deploy(api, model, { charm: "haproxy", numUnits: 0 });
  await integrate(api, model, "wordpress", "mysql");
  await api.ok(ADD_MACHINE, { input: { model, series: "focal" } });
  await deploy(api, model, { charm: "memcached", numUnits: 0 });
  await markDying(api, model, "applications", "memcached");
});

const SET_CONFIG = `mutation ($input: SetApplicationConfigInput!) { setApplicationConfig(input: $input) { name } }`;

type Case = [description: string, code: string, query: string, input: () => Record<string, unknown>, message?: RegExp];

const cases: Case[] = [
  ["unknown model", "NOT_FOUND", DEPLOY, () => ({ model: "no-such-model", charm: "wordpress" }), /model "no-such-model" not found/],
  ["malformed model name", "INVALID_NAME", DEPLOY, () => ({ model: "Bad Model", charm: "wordpress" })],
  ["unknown charm", "NOT_FOUND", DEPLOY, () => ({ model, charm: "nosuch" })],
  ["unknown charm url", "NOT_FOUND", DEPLOY, () => ({ model, charm: "local:nosuch-3" })],
  ["duplicate application name", "ALREADY_EXISTS", DEPLOY, () => ({ model, charm: "wordpress" })],
  ["name of a Dying application", "ALREADY_EXISTS", DEPLOY, () => ({ model, charm: "memcached" }), /dying/],
  ["invalid application name", "INVALID_NAME", DEPLOY, () => ({ model, charm: "wordpress", application: "Word_Press" })],
  [
    "bad constraints at deploy",
    "INVALID_CONSTRAINTS",
    DEPLOY,
    () => ({ model, charm: "mysql", application: "db2", constraints: "mem=lots" }),
    /"mem"/,
  ],
  [
    "unknown constraint key",
    "INVALID_CONSTRAINTS",
    DEPLOY,
    () => ({ model, charm: "mysql", application: "db2", constraints: "ram=2G" }),
    /unknown constraint "ram"/,
  ],
  ["series the charm lacks", "UNSUPPORTED_SERIES", DEPLOY, () => ({ model, charm: "haproxy", application: "lb2", series: "focal" })],
  ["malformed series", "INVALID_ARGUMENT", DEPLOY, () => ({ model, charm: "mysql", application: "db2", series: "Jammy!" })],
  ["negative unit count", "INVALID_ARGUMENT", DEPLOY, () => ({ model, charm: "mysql", application: "db2", numUnits: -1 })],
  [
    "more placements than units",
    "INVALID_PLACEMENT",
    DEPLOY,
    () => ({ model, charm: "mysql", application: "db2", numUnits: 1, placement: ["0", "0"] }),
  ],
  // Fails after the application and its first unit were written: all of it must roll back.
  [
    "late failure: second placement on a missing machine",
    "NOT_FOUND",
    DEPLOY,
    () => ({ model, charm: "mysql", application: "db2", numUnits: 2, placement: ["0", "99"] }),
    /machine "99" not found/,
  ],
  [
    "late failure: second placement on a machine of another series",
    "SERIES_MISMATCH",
    DEPLOY,
    () => ({ model, charm: "mysql", application: "db2", numUnits: 2, placement: ["lxd", "3"] }),
  ],
  ["subordinate with units", "SUBORDINATE_NOT_ALLOWED", DEPLOY, () => ({ model, charm: "logging", application: "logging2", numUnits: 1 })],
  ["addUnit to unknown application", "NOT_FOUND", ADD_UNIT, () => ({ model, application: "nosuch" })],
  ["addUnit to a subordinate", "SUBORDINATE_NOT_ALLOWED", ADD_UNIT, () => ({ model, application: "logging" })],
  ["addUnit to a Dying application", "NOT_ALIVE", ADD_UNIT, () => ({ model, application: "memcached" })],
  ["malformed placement", "INVALID_PLACEMENT", ADD_UNIT, () => ({ model, application: "wordpress", placement: ["machine-1"] })],
  ["placement on a machine of another series", "SERIES_MISMATCH", ADD_UNIT, () => ({ model, application: "wordpress", placement: ["3"] })],
  ["malformed machine id as parent", "INVALID_ID", ADD_MACHINE, () => ({ model, parent: "1/lxd", containerType: "LXD" })],
  ["unknown parent machine", "NOT_FOUND", ADD_MACHINE, () => ({ model, parent: "42", containerType: "LXD" })],
  ["bad machine constraints", "INVALID_CONSTRAINTS", ADD_MACHINE, () => ({ model, constraints: "arch=sparc" }), /not a known architecture/],
  ["bad YAML", "INVALID_CHARM_METADATA", ADD_CHARM, () => ({ model, metadata: "name: [unclosed" }), /not valid YAML/],
  ["metadata without a name", "INVALID_CHARM_METADATA", ADD_CHARM, () => ({ model, metadata: "summary: nameless" })],
  [
    "subordinate without a container-scoped requirer",
    "INVALID_CHARM_METADATA",
    ADD_CHARM,
    () => ({ model, metadata: "name: sub\nsubordinate: true\nrequires:\n  x: y\n" }),
  ],
  ["duplicate relation", "ALREADY_EXISTS", INTEGRATE, () => ({ model, endpoints: ["mysql", "wordpress"] })],
  ["relation to a Dying application", "NOT_ALIVE", INTEGRATE, () => ({ model, endpoints: ["wordpress", "memcached"] })],
  ["relation to an unknown application", "NOT_FOUND", INTEGRATE, () => ({ model, endpoints: ["wordpress", "nosuch"] })],
  ["malformed endpoint", "INVALID_ID", INTEGRATE, () => ({ model, endpoints: ["wordpress::db", "mysql"] })],
  ["no matching endpoints", "NO_MATCHING_RELATION", INTEGRATE, () => ({ model, endpoints: ["mysql", "haproxy"] })],
  ["remove an unknown unit", "NOT_FOUND", REMOVE_UNIT, () => ({ model, units: ["wordpress/0", "wordpress/7"] })],
  ["remove a malformed unit name", "INVALID_ID", REMOVE_UNIT, () => ({ model, units: ["wordpress-0"] })],
  ["remove no units at all", "INVALID_ARGUMENT", REMOVE_UNIT, () => ({ model, units: [] })],
  [
    "remove 1,001 units in one call (one transaction holding the model's lock)",
    "INVALID_ARGUMENT",
    REMOVE_UNIT,
    () => ({ model, units: Array.from({ length: 1001 }, (_, i) => `wordpress/${i}`) }),
    // The request's list cap answers first (the model's own bound stays behind it for a raised LIFELINE_MAX_LIST_LENGTH).
    /has 1001 elements; at most 1000 are accepted/,
  ],
  [
    "201 settings in one setApplicationConfig (no charm has more options)",
    "INVALID_ARGUMENT",
    SET_CONFIG,
    () => ({ model, application: "mysql", values: Array.from({ length: 201 }, (_, i) => ({ key: `k${i}`, value: "v" })) }),
    /at most 200 settings a call, got 201/,
  ],
  ...(onPostgres
    ? []
    : ([
        [
          "11 units in one addUnit on PGlite (one transaction holds every client there)",
          "INVALID_ARGUMENT",
          ADD_UNIT,
          () => ({ model, application: "wordpress", count: 11 }),
          /at most 10 units a call, got 11/,
        ],
        ["11 units at deploy on PGlite", "INVALID_ARGUMENT", DEPLOY, () => ({ model, charm: "mysql", application: "db2", numUnits: 11 })],
      ] satisfies Case[])),
  ["negative force wait", "INVALID_ARGUMENT", REMOVE_UNIT, () => ({ model, units: ["wordpress/0"], force: true, maxWait: -5 })],
  ["remove a machine with units", "HAS_UNITS", REMOVE_MACHINE, () => ({ model, machines: ["1"] })],
  ["remove the controller machine", "MACHINE_MANAGES_MODEL", REMOVE_MACHINE, () => ({ model, machines: ["0"] })],
  ["remove a malformed machine id", "INVALID_ID", REMOVE_MACHINE, () => ({ model, machines: ["lxd"] })],
  ["remove an unknown application", "NOT_FOUND", REMOVE_APPLICATION, () => ({ model, applications: ["nosuch"] })],
  ["remove an unknown relation", "NOT_FOUND", REMOVE_RELATION, () => ({ model, relations: ["99"] })],
  ["remove a relation named ambiguously", "AMBIGUOUS_RELATION", REMOVE_RELATION, () => ({ model, relations: ["mysql"] })],
  [
    "enter the scope of an unknown relation",
    "NOT_FOUND",
    ENTER_SCOPE,
    () => ({ model, relation: 99, unit: "wordpress/0", privateAddress: "10.0.0.1" }),
  ],
  [
    "enter a scope with no address",
    "INVALID_ARGUMENT",
    ENTER_SCOPE,
    () => ({ model, relation: 1, unit: "wordpress/0", privateAddress: "" }),
  ],
  ["set an unknown unit Dead", "NOT_FOUND", SET_UNIT_DEAD, () => ({ model, unit: "nosuch/0" })],
  ["remove a unit that is not Dead", "NOT_DEAD", REMOVE_DEAD_UNIT, () => ({ model, unit: "wordpress/0" })],
  ["set a machine with units Dead", "HAS_UNITS", SET_MACHINE_DEAD, () => ({ model, machine: "1" })],
  ["remove a machine that is not Dead", "NOT_DEAD", REMOVE_DEAD_MACHINE, () => ({ model, machine: "3" })],
  // Issue 12: values the store would refuse (or keep but not read back) are refused at the model's edge,
  // with a message quoting a short prefix of the input.
  [
    "a 2,700-character application name",
    "INVALID_NAME",
    DEPLOY,
    () => ({ model, charm: "mysql", application: "a".repeat(2700) }),
    /2700 characters/,
  ],
  ["a 2,700-character charm name", "INVALID_CHARM_METADATA", ADD_CHARM, () => ({ model, metadata: `name: ${"c".repeat(2700)}\n` })],
  [
    "a 100,000-character series",
    "INVALID_ARGUMENT",
    DEPLOY,
    () => ({ model, charm: "mysql", application: "db2", series: "s".repeat(100_000) }),
  ],
  ["a unit number past 32 bits", "INVALID_ID", REMOVE_UNIT, () => ({ model, units: ["wordpress/99999999999"] })],
  [
    "mem past 2^31 - 1 MiB (it would not read back as an Int)",
    "INVALID_CONSTRAINTS",
    SET_CONSTRAINTS,
    () => ({ model, application: "mysql", constraints: "mem=4000000G" }),
  ],
  [
    "cores past 2^31 - 1",
    "INVALID_CONSTRAINTS",
    SET_CONSTRAINTS,
    () => ({ model, application: "mysql", constraints: "cores=99999999999" }),
  ],
  [
    "cores of 401 digits",
    "INVALID_CONSTRAINTS",
    SET_CONSTRAINTS,
    () => ({ model, application: "mysql", constraints: `cores=1${"0".repeat(400)}` }),
  ],
  [
    "1 MB of tags",
    "INVALID_CONSTRAINTS",
    SET_CONSTRAINTS,
    () => ({ model, application: "mysql", constraints: `tags=${"t".repeat(1_000_000)}` }),
  ],
  [
    "100,000 tags",
    "INVALID_CONSTRAINTS",
    ADD_MACHINE,
    () => ({ model, constraints: `tags=${Array.from({ length: 100_000 }, (_, i) => i).join(",")}` }),
  ],
  ["a 1 MB instance type", "INVALID_CONSTRAINTS", ADD_MACHINE, () => ({ model, constraints: `instance-type=${"i".repeat(1_000_000)}` })],
  [
    "a 1 MB charm description",
    "INVALID_CHARM_METADATA",
    ADD_CHARM,
    () => ({ model, metadata: `name: big\ndescription: ${"d".repeat(1_000_000)}\n` }),
    /at most 65536/,
  ],
  [
    "4,000 provides endpoints (10,000 is over the size limit too)",
    "INVALID_CHARM_METADATA",
    ADD_CHARM,
    () => ({ model, metadata: `name: wide\nprovides:\n${Array.from({ length: 4000 }, (_, i) => `  e${i}: http`).join("\n")}\n` }),
    /at most 100 endpoints/,
  ],
  [
    "a YAML alias bomb",
    "INVALID_CHARM_METADATA",
    ADD_CHARM,
    () => ({
      model,
      metadata: `name: bomb\na: &a ["x","x","x","x","x","x","x","x","x"]\n${Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(",")}]`,
      ).join("\n")}\n`,
    }),
  ],
  [
    "a 1 MB private address",
    "INVALID_ARGUMENT",
    ENTER_SCOPE,
    () => ({ model, relation: 1, unit: "wordpress/0", privateAddress: "1".repeat(1_000_000) }),
    /not an IP address or host name/,
  ],
];

describe("bad input is refused with a stable code and changes nothing", () => {
  it.each(cases)("%s → %s", async (_description, code, query, input, message) => {
    const before = await snapshot(api, model);
    const error = await api.refused(code, query, { input: input() });
    if (message) expect(error.message).toMatch(message);
    expect(error.message.length).toBeGreaterThan(10);
    // The whole refusal, not the input echoed back.
    expect(JSON.stringify(error).length).toBeLessThan(2048);
    expect(await snapshot(api, model)).toEqual(before);
  });

  it("a call naming too many says which count and its bound: limit (what a call counts) and max", async () => {
    const units = Array.from({ length: 1001 }, (_, i) => `wordpress/${i}`);
    const removal = await api.refused("INVALID_ARGUMENT", REMOVE_UNIT, { input: { model, units } });
    expect(removal.extensions).toMatchObject({ limit: "listLength", max: 1000 });
    const values = Array.from({ length: 201 }, (_, i) => ({ key: `k${i}`, value: "v" }));
    const config = await api.refused("INVALID_ARGUMENT", SET_CONFIG, { input: { model, application: "mysql", values } });
    expect(config.extensions).toMatchObject({ limit: "settingsPerCall", max: 200, actual: 201 });
    const count = onPostgres ? 1001 : 11;
    const added = await api.refused("INVALID_ARGUMENT", ADD_UNIT, { input: { model, application: "wordpress", count } });
    expect(added.extensions).toMatchObject({ limit: "unitsPerCall", max: onPostgres ? 1000 : 10, actual: count });
  });

  it("malformed ids in look-ups are INVALID_ID, unknown ones NOT_FOUND with a null result", async () => {
    const query = `query ($model: String!, $unit: String!, $machine: String!) { model(name: $model) { unit(name: $unit) { name } machine(id: $machine) { id } } }`;
    const malformed = await api.request(query, { model, unit: "wordpress", machine: "one" });
    expect(malformed.data).toEqual({ model: { unit: null, machine: null } });
    expect(malformed.errors?.map((e) => e.extensions?.code)).toEqual(["INVALID_ID", "INVALID_ID"]);

    const unknown = await api.request(query, { model, unit: "wordpress/99", machine: "77" });
    expect(unknown.data).toEqual({ model: { unit: null, machine: null } });
    // Sibling fields resolve concurrently, so their errors come in either order.
    expect(unknown.errors?.map((e) => [e.extensions?.code, e.message]).sort()).toEqual([
      ["NOT_FOUND", 'machine "77" not found'],
      ["NOT_FOUND", 'unit "wordpress/99" not found'],
    ]);
  });

  it("an unknown model in a look-up is NOT_FOUND", async () => {
    const result = await api.request(`{ model(name: "nowhere") { name } }`);
    expect(result).toMatchObject({ data: { model: null }, errors: [{ extensions: { code: "NOT_FOUND" } }] });
  });

  it("a cursor the API did not hand out is INVALID_ARGUMENT", async () => {
    const result = await api.request(
      `query ($model: String!) { model(name: $model) { units(after: "bogus") { edges { node { name } } } } }`,
      { model },
    );
    expect(result.errors?.map((e) => e.extensions?.code)).toEqual(["INVALID_ARGUMENT"]);
  });

  it("page sizes, cursors and batch counts out of range are INVALID_ARGUMENT", async () => {
    const units = (args: string) => `query ($model: String!) { model(name: $model) { units(${args}) { edges { node { name } } } } }`;
    for (const args of ["first: -1", "last: -1", 'after: "9223372036854775808"', 'before: "-1"'])
      expect(
        (await api.request(units(args), { model })).errors?.map((e) => e.extensions?.code),
        args,
      ).toEqual(["INVALID_ARGUMENT"]);
    for (const maxBatches of [-5, 0, 10_001])
      await api.refused("INVALID_ARGUMENT", `mutation ($n: Int) { runCleanups(model: "${model}", maxBatches: $n) { batches } }`, {
        n: maxBatches,
      });
  });

  it("a variable that does not coerce to its type is INVALID_ARGUMENT, before anything runs", async () => {
    const error = await api.refused(
      "INVALID_ARGUMENT",
      `query ($n: Int) { model(name: "${model}") { units(first: $n) { edges { node { name } } } } }`,
      {
        n: "x",
      },
    );
    expect(error.message).toMatch(/Variable "\$n" got invalid value/);
  });

  it("a duplicate model name is ALREADY_EXISTS", async () => {
    await api.refused("ALREADY_EXISTS", `mutation ($name: String!) { addModel(input: { name: $name }) { name } }`, { name: model });
  });
});
