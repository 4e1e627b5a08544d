// Specification of charm metadata.yaml parsing. Seed 003 (subordinates):
// subordinate charms relate to their principal through "a scope: container
// relationship", and every principal can host one because every charm
// provides juju-info.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { LifelineError } from "../src/core/errors.js";
import { type CharmEndpoint, parseCharmMetadata } from "../src/model/charm-metadata.js";
import { expectRefusedWith } from "./support/refusal.js";

/** Asserts `yaml` is refused with INVALID_CHARM_METADATA and a message naming every fragment. */
function expectRefused(yaml: string, ...named: string[]): LifelineError {
  const error = expectRefusedWith("INVALID_CHARM_METADATA", () => parseCharmMetadata(yaml));
  for (const fragment of named) expect(error.message).toContain(fragment);
  return error;
}

const jujuInfo: CharmEndpoint = { name: "juju-info", role: "provider", interface: "juju-info", scope: "global", implicit: true };

const full = `
name: wordpress
summary: A blog
description: |
  WordPress, served over HTTP.
series: [jammy, focal]
provides:
  website:
    interface: http
requires:
  db:
    interface: mysql
    scope: global
  logging:
    interface: syslog
    scope: container
peers:
  cluster:
    interface: wp-peer
`;

describe("parseCharmMetadata: accepted metadata", () => {
  it("parses a full metadata.yaml with provides, requires and peers", () => {
    expect(parseCharmMetadata(full)).toEqual({
      name: "wordpress",
      summary: "A blog",
      description: "WordPress, served over HTTP.\n",
      subordinate: false,
      series: ["jammy", "focal"],
      endpoints: [
        { name: "website", role: "provider", interface: "http", scope: "global", implicit: false },
        { name: "db", role: "requirer", interface: "mysql", scope: "global", implicit: false },
        { name: "logging", role: "requirer", interface: "syslog", scope: "container", implicit: false },
        { name: "cluster", role: "peer", interface: "wp-peer", scope: "global", implicit: false },
        jujuInfo,
      ],
    });
  });

  it("accepts the shorthand `name: interface` for an endpoint", () => {
    const meta = parseCharmMetadata("name: app\nprovides:\n  website: http\nrequires:\n  db: mysql\npeers:\n  ring: app-peer\n");
    expect(meta.endpoints).toEqual([
      { name: "website", role: "provider", interface: "http", scope: "global", implicit: false },
      { name: "db", role: "requirer", interface: "mysql", scope: "global", implicit: false },
      { name: "ring", role: "peer", interface: "app-peer", scope: "global", implicit: false },
      jujuInfo,
    ]);
  });

  it("an endpoint's scope defaults to global", () => {
    const meta = parseCharmMetadata("name: app\nrequires:\n  db:\n    interface: mysql\n");
    expect(meta.endpoints.find((e) => e.name === "db")?.scope).toBe("global");
  });

  it("accepts an explicit container scope on a principal's endpoint", () => {
    const meta = parseCharmMetadata("name: app\nprovides:\n  info:\n    interface: info\n    scope: container\n");
    expect(meta.endpoints.find((e) => e.name === "info")?.scope).toBe("container");
  });

  it("adds the implicit juju-info provider endpoint (implicit: true), last", () => {
    const meta = parseCharmMetadata("name: app\nprovides:\n  website: http\n");
    expect(meta.endpoints.at(-1)).toEqual(jujuInfo);
    expect(meta.endpoints.filter((e) => e.implicit)).toEqual([jujuInfo]);
  });

  it("a charm with only a name still provides juju-info", () => {
    expect(parseCharmMetadata("name: bare").endpoints).toEqual([jujuInfo]);
  });

  it("declared endpoints are never implicit", () => {
    const meta = parseCharmMetadata(full);
    expect(meta.endpoints.filter((e) => !e.implicit).map((e) => e.name)).toEqual(["website", "db", "logging", "cluster"]);
  });

  it("summary and description default to empty strings, subordinate to false, series to any", () => {
    expect(parseCharmMetadata("name: bare")).toEqual({
      name: "bare",
      summary: "",
      description: "",
      subordinate: false,
      series: [],
      endpoints: [jujuInfo],
    });
  });

  it("keeps series in the charm's order, preferred first", () => {
    expect(parseCharmMetadata("name: app\nseries: [noble, jammy, focal]").series).toEqual(["noble", "jammy", "focal"]);
  });

  it("a charm may require a juju-* interface (e.g. juju-info)", () => {
    const meta = parseCharmMetadata("name: app\nrequires:\n  host: juju-info\n");
    expect(meta.endpoints[0]).toEqual({ name: "host", role: "requirer", interface: "juju-info", scope: "global", implicit: false });
  });
});

describe("parseCharmMetadata: subordinates (seed 003)", () => {
  it("a subordinate charm with a container-scoped requires endpoint is accepted", () => {
    const meta = parseCharmMetadata(
      "name: logger\nsubordinate: true\nrequires:\n  host:\n    interface: juju-info\n    scope: container\n",
    );
    expect(meta.subordinate).toBe(true);
    expect(meta.endpoints).toEqual([
      { name: "host", role: "requirer", interface: "juju-info", scope: "container", implicit: false },
      jujuInfo,
    ]);
  });

  it("a subordinate charm without any container-scoped endpoint is refused", () => {
    expectRefused("name: logger\nsubordinate: true\nrequires:\n  host: juju-info\n", '"logger"', "requires", "container");
  });

  it("a subordinate charm whose only container-scoped endpoint is a provides is refused", () => {
    expectRefused(
      "name: logger\nsubordinate: true\nprovides:\n  out:\n    interface: logs\n    scope: container\n",
      '"logger"',
      "requires",
      "container",
    );
  });

  it("a subordinate charm with no endpoints at all is refused", () => {
    expectRefused("name: logger\nsubordinate: true\n", '"logger"', "container");
  });

  it('refuses a non-boolean "subordinate"', () => {
    expectRefused("name: logger\nsubordinate: maybe\n", '"subordinate"');
  });
});

describe("parseCharmMetadata: refusals (INVALID_CHARM_METADATA)", () => {
  it("refuses invalid YAML, saying it is not valid YAML", () => {
    expectRefused("name: [unclosed\n", "YAML");
  });

  it("refuses YAML with a duplicated key", () => {
    expectRefused("name: a\nname: b\n", "YAML");
  });

  it("refuses a document that is a list, not a map", () => {
    expectRefused("- name\n- app\n", "map", '"name"');
  });

  it("refuses a document that is a scalar, not a map", () => {
    expectRefused("just a string", "map");
  });

  it("refuses an empty document", () => {
    expectRefused("", "map");
  });

  it("refuses metadata without a name", () => {
    expectRefused("summary: nameless\n", '"name"', "required");
  });

  it("refuses a name that is not a string", () => {
    expectRefused("name: 42\n", '"name"');
  });

  it("refuses a name that breaks Juju's naming rules", () => {
    expectRefused("name: My_Charm\n", '"My_Charm"');
  });

  it("refuses a name ending in a digit-only segment", () => {
    expectRefused("name: mysql-8\n", '"mysql-8"');
  });

  it("refuses a malformed series entry, naming it", () => {
    expectRefused("name: app\nseries: [jammy, Focal]\n", '"series"', '"Focal"');
  });

  it("refuses a series that is not a list", () => {
    expectRefused("name: app\nseries: jammy\n", '"series"', "list");
  });

  it("refuses a non-string series entry", () => {
    expectRefused("name: app\nseries: [jammy, 22]\n", '"series"');
  });

  it("refuses a relation section that is not a map", () => {
    expectRefused("name: app\nprovides: [website]\n", '"provides"', "map");
  });

  it("refuses the same relation name in two sections", () => {
    expectRefused("name: app\nprovides:\n  db: mysql\nrequires:\n  db: pgsql\n", '"db"', "more than once");
  });

  it("refuses the same relation name in requires and peers", () => {
    expectRefused("name: app\nrequires:\n  ring: a\npeers:\n  ring: b\n", '"ring"', "more than once");
  });

  it('refuses a relation name starting with the reserved "juju-" prefix', () => {
    expectRefused("name: app\nrequires:\n  juju-host: juju-info\n", "requires.juju-host", '"juju-"', "reserved");
  });

  it("refuses a relation named juju-info (the implicit endpoint's name)", () => {
    expectRefused("name: app\nprovides:\n  juju-info: juju-info\n", "provides.juju-info", "reserved");
  });

  it("refuses an invalid relation name", () => {
    expectRefused("name: app\nprovides:\n  Web_Site: http\n", '"Web_Site"');
  });

  it("refuses providing a juju-* interface", () => {
    expectRefused("name: app\nprovides:\n  info: juju-info\n", "provides.info", '"juju-info"', "reserved");
  });

  it("refuses a peer relation over a juju-* interface", () => {
    expectRefused("name: app\npeers:\n  ring: juju-ring\n", "peers.ring", '"juju-ring"', "reserved");
  });

  it("refuses a scope other than global or container", () => {
    expectRefused("name: app\nrequires:\n  db:\n    interface: mysql\n    scope: machine\n", "requires.db", "scope", '"machine"');
  });

  it("refuses an endpoint map without an interface", () => {
    expectRefused("name: app\nrequires:\n  db:\n    scope: global\n", "requires.db", '"interface"', "required");
  });

  it("refuses an endpoint with an empty interface", () => {
    expectRefused('name: app\nprovides:\n  website: ""\n', "provides.website", '"interface"');
  });

  it("refuses an endpoint with no body at all", () => {
    expectRefused("name: app\nprovides:\n  website:\n", "provides.website", "interface");
  });

  it('refuses a non-string "summary"', () => {
    expectRefused("name: app\nsummary: [a, b]\n", '"summary"');
  });
});

describe("bundled charms (charms/<name>/metadata.yaml)", () => {
  const dir = new URL("../charms/", import.meta.url);
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const metadata = (name: string) => parseCharmMetadata(readFileSync(new URL(`${name}/metadata.yaml`, dir), "utf8"));

  it("there are bundled charms to check", () => {
    expect(names.length).toBeGreaterThan(0);
  });

  for (const name of names) {
    it(`${name}/metadata.yaml parses, is named after its directory and provides juju-info`, () => {
      const meta = metadata(name);
      expect(meta.name).toBe(name);
      expect(meta.endpoints.at(-1)).toEqual(jujuInfo);
    });
  }

  it("logging is the bundled subordinate, requiring juju-info with container scope", () => {
    const meta = metadata("logging");
    expect(meta.subordinate).toBe(true);
    expect(meta.endpoints).toContainEqual({ name: "info", role: "requirer", interface: "juju-info", scope: "container", implicit: false });
  });
});
