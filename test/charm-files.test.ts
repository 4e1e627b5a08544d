// A charm is its files (Juju's charm directory): metadata.yaml, config.yaml and
// executable hooks/<hook>. Lifeline keeps all three with the charm, so unit
// agents download hooks and options through the API, never from the repository.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseCharmConfig } from "../src/model/index.js";
import { useApi } from "./support/api.js";
import { expectRefusedWith } from "./support/refusal.js";

const api = useApi();

const CHARM_FILES = `config configOptions { name type default description } hooks { name content }`;
const ADD = `mutation ($input: AddCharmInput!) { addCharm(input: $input) { url ${CHARM_FILES} } }`;
const CHARMS = `query ($model: String!) { model(name: $model) { charms(first: 100) { edges { node { url } } } } }`;

const metadata = `name: blog
provides:
  website:
    interface: http
requires:
  db:
    interface: mysql
peers:
  ring:
    interface: blog-ring
`;
const config = `options:
  port:
    type: int
    default: 8080
    description: Where it listens.
  title:
    description: Its title (type string when none is given).
  ratio:
    type: float
    default: 0.5
    description: ""
  debug:
    type: boolean
    default: false
`;
const hook = (name: string) => ({ name, content: `#!/bin/sh\necho ${name}\n` });

describe("addCharm with config.yaml and hooks", () => {
  it("keeps the hooks and config.yaml with the charm, options typed, defaults in `juju config`'s string form", async () => {
    const model = await api.newModel();
    const hooks = [hook("install"), hook("db-relation-changed"), hook("ring-relation-departed"), hook("juju-info-relation-joined")];
    const added = (await api.ok(ADD, { input: { model, metadata, config, hooks } })).addCharm;
    expect(added.config).toBe(config);
    expect(added.configOptions).toEqual([
      { name: "debug", type: "BOOLEAN", default: "false", description: "" },
      { name: "port", type: "INT", default: "8080", description: "Where it listens." },
      { name: "ratio", type: "FLOAT", default: "0.5", description: "" },
      { name: "title", type: "STRING", default: null, description: "Its title (type string when none is given)." },
    ]);
    expect(added.hooks.map((h: any) => h.name)).toEqual([
      "db-relation-changed",
      "install",
      "juju-info-relation-joined",
      "ring-relation-departed",
    ]);
    expect(added.hooks.find((h: any) => h.name === "install").content).toBe("#!/bin/sh\necho install\n");
    const picked = await api.ok(
      `query ($model: String!, $url: String!) { model(name: $model) { charm(url: $url) { hooks(names: ["install", "stop"]) { name } } } }`,
      {
        model,
        url: added.url,
      },
    );
    expect(picked.model.charm.hooks).toEqual([{ name: "install" }]);
  });

  it("a charm with neither is fine: no hooks, no options", async () => {
    const model = await api.newModel();
    const added = (await api.ok(ADD, { input: { model, metadata } })).addCharm;
    expect(added).toMatchObject({ config: null, configOptions: [], hooks: [] });
  });

  it("refuses hooks the charm cannot have, repeated or oversized ones, and bad config.yaml, adding nothing", async () => {
    const model = await api.newModel();
    const before = await api.ok(CHARMS, { model });
    const add = (code: string, input: Record<string, unknown>) => api.refused(code, ADD, { input: { model, metadata, ...input } });
    expect((await add("INVALID_ARGUMENT", { hooks: [hook("cache-relation-joined")] })).message).toMatch(
      /"cache-relation-joined" is not a hook of charm "blog".*\(website, db, ring, juju-info\)/,
    );
    await add("INVALID_ARGUMENT", { hooks: [hook("db-relation-exploded")] });
    await add("INVALID_ARGUMENT", { hooks: [hook("lib.sh")] });
    await add("INVALID_ARGUMENT", { hooks: [hook("install"), hook("install")] });
    await add("INVALID_ARGUMENT", { hooks: [{ name: "install", content: "x".repeat(256 * 1024 + 1) }] });
    await add("INVALID_CHARM_CONFIG", { config: "options: [" });
    await add("INVALID_CHARM_CONFIG", { config: "options:\n  port:\n    type: integer\n" });
    await add("INVALID_CHARM_CONFIG", { config: "options:\n  port:\n    type: int\n    default: eighty\n" });
    await add("INVALID_CHARM_CONFIG", { config: "options: [port]" });
    await add("INVALID_CHARM_METADATA", { metadata: "name: [" });
    expect(await api.ok(CHARMS, { model })).toEqual(before);
  });
});

describe("parseCharmConfig (Juju's config.yaml)", () => {
  it("an empty file, or one with no options, has no options", () => {
    expect(parseCharmConfig("")).toEqual({});
    expect(parseCharmConfig("options: {}\n")).toEqual({});
  });

  it("a default must be of its option's type (an int serves a float)", () => {
    expect(parseCharmConfig("options:\n  r:\n    type: float\n    default: 1\n")).toEqual({
      r: { type: "float", default: 1, description: "" },
    });
    expectRefusedWith("INVALID_CHARM_CONFIG", () => parseCharmConfig("options:\n  s:\n    default: 80\n"), 'option "s"', "not a string");
    expectRefusedWith(
      "INVALID_CHARM_CONFIG",
      () => parseCharmConfig("options:\n  b:\n    type: boolean\n    default: yes please\n"),
      "not a boolean",
    );
    expectRefusedWith("INVALID_CHARM_CONFIG", () => parseCharmConfig("options:\n  i:\n    type: int\n    default: 1.5\n"), "not a int");
  });
});

describe("bundled charms", () => {
  const bundled = new URL("../charms/", import.meta.url);
  const names = readdirSync(bundled, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);

  it.each(names)("%s deploys with every file of its directory: hooks/ and config.yaml", async (name) => {
    const model = await api.newModel();
    const data = await api.ok(`mutation ($input: DeployInput!) { deploy(input: $input) { charm { ${CHARM_FILES} } } }`, {
      input: { model, charm: name, numUnits: 0 },
    });
    const charm = data.deploy.charm;
    const dir = new URL(`${name}/`, bundled);
    let hookFiles: string[] = [];
    try {
      hookFiles = readdirSync(new URL("hooks/", dir)).sort();
    } catch {}
    expect(charm.hooks.map((h: any) => h.name)).toEqual(hookFiles);
    for (const h of charm.hooks) expect(h.content).toBe(readFileSync(new URL(`hooks/${h.name}`, dir), "utf8"));
    let configYaml: string | null = null;
    try {
      configYaml = readFileSync(new URL("config.yaml", dir), "utf8");
    } catch {}
    expect(charm.config).toBe(configYaml);
    expect(charm.configOptions.map((o: any) => o.name)).toEqual(Object.keys(configYaml ? parseCharmConfig(configYaml) : {}).sort());
  });
});
