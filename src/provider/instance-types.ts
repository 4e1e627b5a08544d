// The dummy cloud's catalog (nine instance types, two arches, three zones) and
// Juju's rule for choosing among them: the cheapest type that satisfies every
// constraint. A refusal names the constraint that cannot be met and what the
// catalog offers instead, so a person can fix the request.
import { constraintSpelling } from "../core/constraints.js";
import { type InstanceConstraints, ProviderError } from "./provider.js";

/** One offering; sizes in MiB, as in constraints, so they compare directly. */
export interface InstanceType {
  readonly name: string;
  readonly arch: string;
  readonly cores: number;
  readonly cpuPower: number;
  readonly mem: number;
  readonly rootDisk: number;
  readonly tags: readonly string[];
}

const GiB = 1024;

const offering = (name: string, arch: string, cores: number, cpuPower: number, memGiB: number, rootDiskGiB: number, tags: string[]) =>
  Object.freeze({ name, arch, cores, cpuPower, mem: memGiB * GiB, rootDisk: rootDiskGiB * GiB, tags: Object.freeze(tags) });

/** Listed by family, not by price, as a cloud lists them: matching must sort. */
export const DummyInstanceTypes: readonly InstanceType[] = Object.freeze([
  offering("d1.small", "amd64", 1, 100, 2, 16, ["hdd"]),
  offering("d1.medium", "amd64", 2, 200, 4, 32, ["ssd"]),
  offering("d1.large", "amd64", 4, 400, 8, 64, ["hdd"]),
  offering("d1.xlarge", "amd64", 8, 800, 32, 128, ["ssd"]),
  offering("c1.large", "amd64", 8, 1000, 8, 32, ["ssd"]),
  offering("g1.xlarge", "amd64", 16, 1600, 256, 512, ["gpu", "ssd"]),
  offering("a1.medium", "arm64", 2, 150, 4, 32, ["ssd"]),
  offering("a1.large", "arm64", 4, 300, 16, 64, ["ssd"]),
  offering("a1.xlarge", "arm64", 16, 1200, 64, 256, ["ssd"]),
]);

/** Where the dummy cloud can place instances. */
export const DummyZones: readonly string[] = Object.freeze(["zone-a", "zone-b", "zone-c"]);

/** Juju's default when neither arch nor instance-type is asked for. */
export const DefaultArch = "amd64";

type Key = keyof InstanceConstraints;

/** Juju's spelling of each key, for messages and refusal rules. */
const spelling = constraintSpelling;

const megabytes = { M: 1, G: 1024, T: 1024 ** 2 } as const;

/** Sizes as Juju prints them (`512G`, `1536M`), so messages read like the constraints people typed. */
export function formatMegabytes(mb: number): string {
  for (const suffix of ["T", "G"] as const) if (mb !== 0 && mb % megabytes[suffix] === 0) return `${mb / megabytes[suffix]}${suffix}`;
  return `${mb}M`;
}

const isSize = (key: Key) => key === "mem" || key === "rootDisk";

/** One constraint in Juju's syntax (`mem=512G`, `tags=ssd,^gpu`), for messages. */
export function formatConstraint(key: Key, value: InstanceConstraints[Key]): string {
  const text = Array.isArray(value) ? value.join(",") : isSize(key) ? formatMegabytes(value as number) : String(value);
  return `${spelling[key]}=${text}`;
}

/** Absent and empty both mean "no constraint", as in Juju. */
const asked = <K extends Key>(constraints: InstanceConstraints, key: K): NonNullable<InstanceConstraints[K]> | undefined => {
  const value = constraints[key];
  if (value === undefined || value === "" || value === 0 || (Array.isArray(value) && value.length === 0)) return undefined;
  return value as NonNullable<InstanceConstraints[K]>;
};

/** One constraint as a filter on the catalog, with what to offer instead when nothing passes. */
interface Check {
  words: string;
  /** The default arch: applied, but not something the person asked for, so not named as context. */
  implied?: boolean;
  admits(type: InstanceType): boolean;
  offered(candidates: readonly InstanceType[]): string;
}

const distinct = (values: Iterable<string>) => [...new Set(values)].sort();

function hasTags(type: InstanceType, tags: readonly string[]): boolean {
  return tags.every((tag) => (tag.startsWith("^") ? !type.tags.includes(tag.slice(1)) : type.tags.includes(tag)));
}

function checksFor(constraints: InstanceConstraints): Check[] {
  const checks: Check[] = [];
  const instanceType = asked(constraints, "instanceType");
  if (instanceType !== undefined)
    checks.push({
      words: formatConstraint("instanceType", instanceType),
      admits: (type) => type.name === instanceType,
      offered: (candidates) => `known: ${candidates.map((type) => type.name).join(", ")}`,
    });
  const arch = asked(constraints, "arch");
  // A named instance type fixes the arch; otherwise Juju assumes amd64.
  if (arch !== undefined || instanceType === undefined)
    checks.push({
      words: formatConstraint("arch", arch ?? DefaultArch),
      implied: arch === undefined,
      admits: (type) => type.arch === (arch ?? DefaultArch),
      offered: (candidates) => `arches offered: ${distinct(candidates.map((type) => type.arch)).join(", ")}`,
    });
  for (const key of ["cores", "cpuPower", "mem", "rootDisk"] as const) {
    const least = asked(constraints, key);
    if (least === undefined) continue;
    const show = (n: number) => (isSize(key) ? formatMegabytes(n) : String(n));
    checks.push({
      words: formatConstraint(key, least),
      admits: (type) => type[key] >= least,
      offered: (candidates) => `largest: ${show(Math.max(...candidates.map((type) => type[key])))}`,
    });
  }
  const tags = asked(constraints, "tags");
  if (tags !== undefined)
    checks.push({
      words: formatConstraint("tags", tags),
      admits: (type) => hasTags(type, tags),
      offered: (candidates) => {
        const offered = distinct(candidates.flatMap((type) => type.tags));
        return offered.length ? `tags offered: ${offered.join(", ")}` : "no tags offered";
      },
    });
  return checks;
}

/** Cheapest first: least memory, then fewest cores; the rest only make the choice deterministic. */
const byPrice = (a: InstanceType, b: InstanceType) =>
  a.mem - b.mem || a.cores - b.cores || a.cpuPower - b.cpuPower || a.rootDisk - b.rootDisk || a.name.localeCompare(b.name);

/**
 * The cheapest type satisfying every constraint. Constraints are applied one by
 * one, so a refusal names the first that empties the candidates, with the ones
 * applied before it (`no instance type satisfies mem=128G with arch=arm64 (largest: 64G)`).
 */
export function matchInstanceType(constraints: InstanceConstraints, catalog: readonly InstanceType[] = DummyInstanceTypes): InstanceType {
  let candidates = [...catalog];
  const context: string[] = [];
  for (const check of checksFor(constraints)) {
    const passing = candidates.filter((type) => check.admits(type));
    if (passing.length === 0) {
      const words = check.implied ? `${check.words} (the default)` : check.words;
      const wth = context.length ? ` with ${context.join(" ")}` : "";
      throw new ProviderError(`no instance type satisfies ${words}${wth} (${check.offered(candidates)})`, false);
    }
    candidates = passing;
    if (!check.implied) context.push(check.words);
  }
  const [cheapest] = candidates.sort(byPrice);
  if (!cheapest) throw new ProviderError("the provider offers no instance types", false);
  return cheapest;
}

/** The zones a start may use, in the cloud's order; unknown zones are simply not available, and none available is a refusal. */
export function allowedZones(constraints: InstanceConstraints, zones: readonly string[] = DummyZones): string[] {
  const wanted = asked(constraints, "zones");
  if (wanted === undefined) return [...zones];
  const allowed = zones.filter((zone) => wanted.includes(zone));
  if (allowed.length === 0)
    throw new ProviderError(`no zone satisfies ${formatConstraint("zones", wanted)} (zones offered: ${zones.join(", ")})`, false);
  return allowed;
}

/**
 * A refusal rule: `key=value` words in Juju's syntax. A start is refused when
 * it asks for every word: at least the value of a number (cores, cpu-power,
 * mem, root-disk), exactly the value of a string (arch, instance-type), and
 * every item of a list (tags, zones). Only what the start asks for counts:
 * defaults (arch=amd64) and what the chosen type happens to have do not.
 */
export interface RefusalRule {
  readonly text: string;
  readonly constraints: Readonly<InstanceConstraints>;
}

const ruleKeys = new Map<string, Exclude<Key, "container">>(
  (Object.entries(spelling) as [Key, string][]).flatMap(([key, spelled]) => (key === "container" ? [] : [[spelled, key]])),
);

/** Parses a refusal rule; throws RangeError naming the bad word, since a rule comes from a person (an admin or a test). */
export function parseRefusalRule(text: string): RefusalRule {
  const bad = (why: string) => new RangeError(`bad refusal rule "${text}": ${why}`);
  const constraints: InstanceConstraints = {};
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) throw bad("expected key=value words, e.g. mem=64G (null clears the rule)");
  for (const word of words) {
    const eq = word.indexOf("=");
    const spelled = eq > 0 ? word.slice(0, eq) : word;
    const key = ruleKeys.get(spelled);
    if (!key) throw bad(`"${spelled}" is not a constraint key (expected one of ${[...ruleKeys.keys()].join(", ")})`);
    if (eq < 0) throw bad(`"${word}" has no value: expected ${spelled}=value`);
    if (key in constraints) throw bad(`${spelled} is given twice`);
    const raw = word.slice(eq + 1);
    if (raw === "") throw bad(`${spelled} has an empty value`);
    switch (key) {
      case "mem":
      case "rootDisk": {
        const match = /^(\d+(?:\.\d+)?)([MGT])?$/.exec(raw);
        if (!match) throw bad(`${spelled}=${raw}: expected a size such as 512M, 8G or 1T`);
        constraints[key] = Math.ceil(Number(match[1]) * megabytes[(match[2] ?? "M") as keyof typeof megabytes]);
        break;
      }
      case "cores":
      case "cpuPower":
        if (!/^\d+$/.test(raw)) throw bad(`${spelled}=${raw}: expected a whole number`);
        constraints[key] = Number(raw);
        break;
      case "tags":
      case "zones": {
        const items = raw.split(",");
        if (items.some((item) => item === "" || item === "^"))
          throw bad(`${spelled}=${raw}: expected a comma-separated list without empty items`);
        constraints[key] = items;
        break;
      }
      case "arch":
      case "instanceType":
        constraints[key] = raw;
        break;
    }
  }
  return { text: words.join(" "), constraints };
}

/** The start's constraints that match the rule, in Juju's syntax, or null when the rule does not refuse the start. */
export function refusedBy(rule: RefusalRule, constraints: InstanceConstraints): string | null {
  const matched: string[] = [];
  for (const key of Object.keys(rule.constraints) as Key[]) {
    const limit = rule.constraints[key];
    const value = asked(constraints, key);
    if (value === undefined || limit === undefined) return null;
    const matches = Array.isArray(limit)
      ? limit.every((item) => (value as string[]).includes(item))
      : typeof limit === "number"
        ? (value as number) >= limit
        : value === limit;
    if (!matches) return null;
    matched.push(formatConstraint(key, value));
  }
  return matched.join(" ");
}
