// Juju's constraints: `mem=2G cores=4 tags=ssd,^slow zones=a,b`. Parsed once
// at the edge; stored and merged in parsed form. An empty value (`mem=`) is
// kept as an explicit "no constraint", so it overrides a fallback when merged,
// as in Juju.

import { type Constraints, constraintSpelling } from "../core/constraints.js";
import { LifelineError } from "../core/errors.js";
import { ContainerTypes } from "../core/machine.js";

export type { Constraints };

export const Architectures = ["amd64", "arm64", "ppc64el", "s390x", "riscv64"] as const;

type Key = keyof Constraints;

const spelling = constraintSpelling;
const keyOf = new Map<string, Key>(Object.entries(spelling).map(([k, s]) => [s, k as Key]));
keyOf.set("cpu-cores", "cores"); // Juju's older spelling

const megabytes: Record<string, number> = { M: 1, G: 1024, T: 1024 ** 2, P: 1024 ** 3 };

const bad = (key: string, why: string) => new LifelineError("INVALID_CONSTRAINTS", `bad "${key}" constraint: ${why}`, { key });

function parseSize(key: string, raw: string): number {
  const match = /^(\d+(?:\.\d+)?)([MGTP])?$/.exec(raw);
  if (!match) throw bad(key, `expected a non-negative number with an optional M, G, T or P suffix (megabytes by default), got "${raw}"`);
  return Math.ceil(Number(match[1]) * megabytes[match[2] ?? "M"]!);
}

function parseCount(key: string, raw: string): number {
  if (!/^\d+$/.test(raw)) throw bad(key, `expected a non-negative integer, got "${raw}"`);
  return Number(raw);
}

function parseList(key: string, raw: string): string[] {
  const items = raw.split(",");
  if (items.some((item) => item === "" || item === "^"))
    throw bad(key, `expected a comma-separated list with no empty items, got "${raw}"`);
  return items;
}

function parseOne(key: Key, spelled: string, raw: string): Constraints[Key] {
  switch (key) {
    case "mem":
    case "rootDisk":
      return raw === "" ? 0 : parseSize(spelled, raw);
    case "cores":
    case "cpuPower":
      return raw === "" ? 0 : parseCount(spelled, raw);
    case "tags":
    case "zones":
      return raw === "" ? [] : parseList(spelled, raw);
    case "arch":
      if (raw !== "" && !(Architectures as readonly string[]).includes(raw))
        throw bad(spelled, `"${raw}" is not a known architecture (${Architectures.join(", ")})`);
      return raw;
    case "container":
      if (raw !== "" && !(ContainerTypes as readonly string[]).includes(raw))
        throw bad(spelled, `"${raw}" is not a container type (${ContainerTypes.join(", ")})`);
      return raw;
    case "instanceType":
      return raw;
  }
}

/** Parses Juju's constraint syntax; throws INVALID_CONSTRAINTS naming the offending key. */
export function parseConstraints(text: string): Constraints {
  const result: Constraints = {};
  for (const word of text.trim().split(/\s+/).filter(Boolean)) {
    const eq = word.indexOf("=");
    if (eq <= 0) throw new LifelineError("INVALID_CONSTRAINTS", `malformed constraint "${word}": expected key=value, e.g. mem=2G`);
    const spelled = word.slice(0, eq);
    const key = keyOf.get(spelled);
    if (!key)
      throw new LifelineError(
        "INVALID_CONSTRAINTS",
        `unknown constraint "${spelled}": expected one of ${Object.values(spelling).join(", ")}`,
        { key: spelled },
      );
    if (key in result) throw bad(spelled, "already set");
    (result as Record<Key, unknown>)[key] = parseOne(key, spelled, word.slice(eq + 1));
  }
  return result;
}

function formatSize(mb: number): string {
  if (mb === 0) return "";
  for (const suffix of ["P", "T", "G"] as const) if (mb % megabytes[suffix]! === 0) return `${mb / megabytes[suffix]!}${suffix}`;
  return `${mb}M`;
}

/** Prints constraints in Juju's syntax and key order; `parseConstraints(formatConstraints(c))` equals `c`. */
export function formatConstraints(constraints: Constraints): string {
  const words: string[] = [];
  for (const [key, spelled] of Object.entries(spelling) as [Key, string][]) {
    const value = constraints[key];
    if (value === undefined) continue;
    let text: string;
    if (key === "mem" || key === "rootDisk") text = formatSize(value as number);
    else if (Array.isArray(value)) text = value.join(",");
    else if (value === 0) text = "";
    else text = String(value);
    words.push(`${spelled}=${text}`);
  }
  return words.join(" ");
}

/**
 * Seed 004: "every constraint not set on the service is taken from the
 * environment". The application's value wins key by key; an explicitly empty
 * application value still wins.
 */
export function mergeConstraints(fallback: Constraints, preferred: Constraints): Constraints {
  return { ...fallback, ...preferred };
}

export const hasConstraints = (constraints: Constraints) => Object.keys(constraints).length > 0;
