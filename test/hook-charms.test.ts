// The bundled charms' hooks (charms/<name>/hooks), run by the real hook
// runner against in-memory contexts: how each charm is laid out, the fail-hook
// option every hook honours, and the data the charms exchange over their
// relations (seed 002: a -changed hook that finds its counterpart's data
// missing succeeds and waits to run again).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type HookOutcome, type HookRun, HookRunner } from "../src/agents/hooks/run-hook.js";
import { parseCharmMetadata } from "../src/model/charm-metadata.js";
import { MemoryHookContext, type MemoryRelation, RelationSettingsStore } from "./support/hook-context.js";

const charmsDir = fileURLToPath(new URL("../charms/", import.meta.url));
const charmNames = readdirSync(charmsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const hooksOf = (charm: string) => readdirSync(join(charmsDir, charm, "hooks")).sort();

/** The charm's config.yaml defaults: what config-get shows before anyone sets anything. */
function configDefaults(charm: string): Record<string, string | number | boolean> {
  const { options } = parse(readFileSync(join(charmsDir, charm, "config.yaml"), "utf8")) as {
    options: Record<string, { type: string; default: string | number | boolean }>;
  };
  return Object.fromEntries(Object.entries(options).map(([name, option]) => [name, option.default]));
}

const runner = new HookRunner();
afterAll(() => runner.close());

/** A unit of a bundled charm, at an address, with its relations; units of one test share `settings`. */
function unitOf(
  unit: string,
  options: { settings: RelationSettingsStore; relations?: MemoryRelation[]; address?: string; config?: Record<string, string> },
) {
  const charm = unit.slice(0, unit.indexOf("/"));
  return new MemoryHookContext({
    unit,
    settings: options.settings,
    relations: options.relations ?? [],
    config: { ...configDefaults(charm), ...options.config },
    addresses: { private: options.address ?? "10.0.0.1", public: "203.0.113.1" },
  });
}

type Ran = Extract<HookOutcome, { ran: true }>;

/** Runs the charm's hook for the context's unit; in a relation hook, about `remote` (a unit, or in -broken its application). */
async function hook(
  context: MemoryHookContext,
  name: string,
  about: { relation?: number; remoteUnit?: string; departingUnit?: string } = {},
): Promise<Ran> {
  const charm = context.unit.slice(0, context.unit.indexOf("/"));
  const run: HookRun = {
    charmDir: join(charmsDir, charm),
    hook: name,
    unit: context.unit,
    model: "default",
    machineId: "1",
    principalUnit: "",
    context,
  };
  if (about.relation !== undefined) {
    const relation = context.relations.find((candidate) => candidate.id === about.relation)!;
    Object.assign(run, {
      relation: { id: relation.id, endpoint: relation.endpoint },
      remoteApp: relation.remoteApp,
      remoteUnit: about.remoteUnit,
    });
    if (about.departingUnit) run.departingUnit = about.departingUnit;
  }
  const outcome = await runner.run(run);
  if (!outcome.ran) throw new Error(`${charm} has no ${name} hook`);
  return outcome;
}

/** Runs the hook and commits its relation settings, as the unit agent does after a hook that succeeded. */
async function succeeds(context: MemoryHookContext, name: string, about: Parameters<typeof hook>[2] = {}): Promise<void> {
  const outcome = await hook(context, name, about);
  expect(outcome.ok, outcome.output).toBe(true);
  context.commit();
}

describe("bundled charms are laid out as Juju charms", () => {
  const unitHooks = new Set(["install", "config-changed", "start", "stop", "remove", "upgrade-charm", "leader-elected", "update-status"]);

  for (const charm of charmNames) {
    it(`${charm}: every hook is executable and named after a unit event or one of its endpoints' relation events`, () => {
      const endpoints = parseCharmMetadata(readFileSync(join(charmsDir, charm, "metadata.yaml"), "utf8")).endpoints.map(
        (endpoint) => endpoint.name,
      );
      expect(hooksOf(charm).length).toBeGreaterThan(0);
      for (const name of hooksOf(charm)) {
        expect(statSync(join(charmsDir, charm, "hooks", name)).mode & 0o111, name).toBe(0o111);
        const relationEvent = /^(.+)-relation-(joined|changed|departed|broken)$/.exec(name);
        expect(unitHooks.has(name) || (relationEvent !== null && endpoints.includes(relationEvent[1]!)), name).toBe(true);
      }
    });

    it(`${charm}: every hook starts by failing on purpose when config fail-hook names it`, () => {
      const guard = [
        "set -eu",
        "# Tests and demos make any hook fail on purpose by naming it in the charm's fail-hook option.",
        'if [ "$(config-get fail-hook)" = "$JUJU_HOOK_NAME" ]; then',
        '  juju-log -l ERROR "$JUJU_HOOK_NAME fails on purpose (config fail-hook)"',
        "  exit 1",
        "fi",
      ];
      for (const name of hooksOf(charm)) {
        const lines = readFileSync(join(charmsDir, charm, "hooks", name), "utf8").split("\n");
        expect(lines[0], name).toBe("#!/bin/sh");
        // After the shebang and the comment saying what the hook does, the guard comes first.
        const start = lines.findIndex((line, index) => index > 0 && !line.startsWith("#"));
        expect(lines.slice(start, start + guard.length), name).toEqual(guard);
      }
    });

    it(`${charm}: config.yaml declares fail-hook, a string that is empty by default`, () => {
      const { options } = parse(readFileSync(join(charmsDir, charm, "config.yaml"), "utf8"));
      expect(options["fail-hook"]).toMatchObject({ type: "string", default: "" });
      for (const option of Object.values(options) as { type: string; description: string }[]) {
        expect(["string", "int", "float", "boolean"]).toContain(option.type);
        expect(option.description).toEqual(expect.any(String));
      }
    });
  }
});

describe("fail-hook", () => {
  for (const charm of charmNames) {
    it(`${charm}: the hook it names exits 1 with an ERROR in the log, before doing anything`, async () => {
      const context = unitOf(`${charm}/0`, { settings: new RelationSettingsStore(), config: { "fail-hook": "install" } });
      const outcome = await hook(context, "install");
      expect(outcome).toMatchObject({ ok: false, exitCode: 1 });
      expect(context.logs).toEqual([{ level: "ERROR", message: "install fails on purpose (config fail-hook)" }]);
      expect(context.statuses).toEqual([]);
    });
  }

  it("other hooks run as usual", async () => {
    const context = unitOf("mysql/0", { settings: new RelationSettingsStore(), config: { "fail-hook": "install" } });
    await succeeds(context, "start");
    expect(context.status).toEqual({ status: "active", message: "ready" });
  });
});

describe("unit lifecycle hooks", () => {
  it("install reports maintenance, start active, stop maintenance again", async () => {
    const context = unitOf("mysql/0", { settings: new RelationSettingsStore() });
    for (const name of ["install", "config-changed", "start", "stop", "remove"]) await succeeds(context, name);
    expect(context.statuses).toEqual([
      { status: "maintenance", message: "installing mysql" },
      { status: "active", message: "ready" },
      { status: "maintenance", message: "stopping mysql" },
    ]);
  });

  it("wordpress starts blocked without a database relation, waiting with one", async () => {
    const settings = new RelationSettingsStore();
    const alone = unitOf("wordpress/0", { settings });
    const related = unitOf("wordpress/1", { settings, relations: [{ id: 2, endpoint: "db", remoteApp: "mysql", members: [] }] });
    await succeeds(alone, "start");
    await succeeds(related, "start");
    expect(alone.status).toEqual({ status: "blocked", message: "needs a database relation" });
    expect(related.status).toEqual({ status: "waiting", message: "waiting for database" });
  });
});

describe("wordpress and mysql over db", () => {
  const pair = () => {
    const settings = new RelationSettingsStore();
    const mysql = unitOf("mysql/0", {
      settings,
      address: "10.0.0.5",
      relations: [{ id: 2, endpoint: "db", remoteApp: "wordpress", members: ["wordpress/0"] }],
    });
    const wordpress = unitOf("wordpress/0", {
      settings,
      address: "10.0.0.7",
      relations: [{ id: 2, endpoint: "db", remoteApp: "mysql", members: ["mysql/0"] }],
    });
    return { settings, mysql, wordpress };
  };

  it("mysql's db-relation-joined offers host, database, user and password", async () => {
    const { settings, mysql } = pair();
    await succeeds(mysql, "db-relation-joined", { relation: 2, remoteUnit: "wordpress/0" });
    expect(settings.get(2, "mysql/0")).toEqual({
      host: "10.0.0.5",
      database: "wordpress",
      user: "wordpress",
      password: expect.stringMatching(/^[0-9a-f]{24}$/),
    });
  });

  it("a second join keeps the password mysql already offered", async () => {
    const { settings, mysql } = pair();
    await succeeds(mysql, "db-relation-joined", { relation: 2, remoteUnit: "wordpress/0" });
    const first = settings.get(2, "mysql/0")!.password;
    await succeeds(mysql, "db-relation-joined", { relation: 2, remoteUnit: "wordpress/0" });
    expect(settings.get(2, "mysql/0")!.password).toBe(first);
  });

  it("wordpress's db-relation-changed after mysql's join sees the host and becomes active", async () => {
    const { mysql, wordpress } = pair();
    await succeeds(mysql, "db-relation-joined", { relation: 2, remoteUnit: "wordpress/0" });
    await succeeds(wordpress, "db-relation-changed", { relation: 2, remoteUnit: "mysql/0" });
    expect(wordpress.status).toEqual({ status: "active", message: "database at 10.0.0.5" });
    expect(wordpress.logs).toContainEqual({ level: "INFO", message: "db:2: using database wordpress at 10.0.0.5 (user wordpress)" });
  });

  it("wordpress's db-relation-changed before mysql has offered anything succeeds and changes nothing (it runs again)", async () => {
    const { settings, wordpress } = pair();
    settings.put(2, "mysql/0", { "private-address": "10.0.0.5" });
    await succeeds(wordpress, "db-relation-changed", { relation: 2, remoteUnit: "mysql/0" });
    expect(wordpress.statuses).toEqual([]);
  });

  it("wordpress waits for a database once the last mysql unit departed", async () => {
    const { wordpress } = pair();
    wordpress.relations[0]!.members = [];
    await succeeds(wordpress, "db-relation-departed", { relation: 2, remoteUnit: "mysql/0", departingUnit: "mysql/0" });
    expect(wordpress.status).toEqual({ status: "waiting", message: "no database" });
  });

  it("wordpress keeps its database while another mysql unit remains", async () => {
    const { wordpress } = pair();
    wordpress.relations[0]!.members = ["mysql/1"];
    await succeeds(wordpress, "db-relation-departed", { relation: 2, remoteUnit: "mysql/0", departingUnit: "mysql/0" });
    expect(wordpress.statuses).toEqual([]);
  });

  it("wordpress waits for a database once the relation is broken", async () => {
    const { wordpress } = pair();
    wordpress.relations[0]!.members = [];
    await succeeds(wordpress, "db-relation-broken", { relation: 2 });
    expect(wordpress.status).toEqual({ status: "waiting", message: "no database" });
  });
});

describe("the other charms' relations", () => {
  it("the logging subordinate is active once its principal joined", async () => {
    const logging = unitOf("logging/0", {
      settings: new RelationSettingsStore(),
      relations: [{ id: 4, endpoint: "info", remoteApp: "wordpress", members: ["wordpress/0"] }],
    });
    await succeeds(logging, "info-relation-joined", { relation: 4, remoteUnit: "wordpress/0" });
    expect(logging.status).toEqual({ status: "active", message: "shipping logs of wordpress/0" });
  });

  it("rsyslog tells logging where to ship logs", async () => {
    const settings = new RelationSettingsStore();
    const rsyslog = unitOf("rsyslog/0", {
      settings,
      address: "10.0.0.9",
      relations: [{ id: 5, endpoint: "logs", remoteApp: "logging", members: ["logging/0"] }],
    });
    const logging = unitOf("logging/0", {
      settings,
      relations: [{ id: 5, endpoint: "logs", remoteApp: "rsyslog", members: ["rsyslog/0"] }],
    });
    await succeeds(rsyslog, "logs-relation-joined", { relation: 5, remoteUnit: "logging/0" });
    await succeeds(logging, "logs-relation-changed", { relation: 5, remoteUnit: "rsyslog/0" });
    expect(logging.logs).toEqual([{ level: "INFO", message: "logs:5: shipping to 10.0.0.9:514" }]);
  });

  it("memcached tells wordpress where the cache is, on its configured port", async () => {
    const settings = new RelationSettingsStore();
    const memcached = unitOf("memcached/0", {
      settings,
      address: "10.0.0.8",
      relations: [{ id: 6, endpoint: "cache", remoteApp: "wordpress", members: ["wordpress/0"] }],
    });
    const wordpress = unitOf("wordpress/0", {
      settings,
      relations: [{ id: 6, endpoint: "cache", remoteApp: "memcached", members: ["memcached/0"] }],
    });
    await succeeds(memcached, "cache-relation-joined", { relation: 6, remoteUnit: "wordpress/0" });
    await succeeds(wordpress, "cache-relation-changed", { relation: 6, remoteUnit: "memcached/0" });
    expect(wordpress.logs).toEqual([{ level: "INFO", message: "cache:6: caching at 10.0.0.8:11211" }]);
  });

  it("wordpress tells haproxy where it serves, and haproxy balances it", async () => {
    const settings = new RelationSettingsStore();
    const wordpress = unitOf("wordpress/0", {
      settings,
      address: "10.0.0.7",
      relations: [{ id: 7, endpoint: "website", remoteApp: "haproxy", members: ["haproxy/0"] }],
    });
    const haproxy = unitOf("haproxy/0", {
      settings,
      relations: [{ id: 7, endpoint: "reverseproxy", remoteApp: "wordpress", members: ["wordpress/0"] }],
    });
    await succeeds(wordpress, "website-relation-joined", { relation: 7, remoteUnit: "haproxy/0" });
    await succeeds(haproxy, "reverseproxy-relation-changed", { relation: 7, remoteUnit: "wordpress/0" });
    expect(settings.get(7, "wordpress/0")).toEqual({ hostname: "10.0.0.7", port: "80" });
    expect(haproxy.status).toEqual({ status: "active", message: "balancing 1 backends" });
  });
});
