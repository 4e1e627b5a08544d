// Juju's constraints: `mem=2G cores=4 tags=ssd,^slow zones=a,b`. Parsed once
// at the edge; stored and merged in parsed form. An empty value (`mem=`) is
// kept as an explicit "no constraint", so it overrides a fallback when merged,
// as in Juju.

import { type Constraints, constraintSpelling, megabytes } from "../core/constraints.js";

export { formatConstraints } from "../core/constraints.js";

import { LifelineError, shortQuote } from "../core/errors.js";
import { ContainerTypes } from "../core/machine.js";

export type { Constraints };

export const Architectures = ["amd64", "arm64", "ppc64el", "s390x", "riscv64"] as const;

type Key = keyof Constraints;

const spelling = constraintSpelling;
const keyOf = new Map<string, Key>(Object.entries(spelling).map(([k, s]) => [s, k as Key]));
keyOf.set("cpu-cores", "cores"); // Juju's older spelling

const bad = (key: string, why: string) => new LifelineError("INVALID_CONSTRAINTS", `bad ${shortQuote(key)} constraint: ${why}`, { key });

/**
 * Bounds that fit how a value is read back: numbers are GraphQL Ints (32-bit), so mem and root-disk stop at
 * 2^31 - 1 MiB (2 PiB), and a value that would read back as an error is refused when it is written. Names and
 * lists are capped well past any cloud's (an EC2 instance type is under 32 characters, a tag under 128).
 */
export const ConstraintLimits = { number: 2 ** 31 - 1, text: 4096, name: 128, items: 64 } as const;

function parseSize(key: string, raw: string): number {
  const match = /^(\d+(?:\.\d+)?)([MGTP])?$/.exec(raw);
  if (!match)
    throw bad(key, `expected a non-negative number with an optional M, G, T or P suffix (megabytes by default), got ${shortQuote(raw)}`);
  return inRange(key, raw, Math.ceil(Number(match[1]) * megabytes[match[2] ?? "M"]!), "MiB");
}

function parseCount(key: string, raw: string): number {
  if (!/^\d+$/.test(raw)) throw bad(key, `expected a non-negative integer, got ${shortQuote(raw)}`);
  return inRange(key, raw, Number(raw), "");
}

function inRange(key: string, raw: string, value: number, unit: string): number {
  if (value > ConstraintLimits.number)
    throw bad(key, `${shortQuote(raw)} is more than the largest accepted, ${ConstraintLimits.number}${unit && ` ${unit}`}`);
  return value;
}

function parseName(key: string, raw: string): string {
  if (raw.length > ConstraintLimits.name) throw bad(key, `${shortQuote(raw)} is longer than ${ConstraintLimits.name} characters`);
  return raw;
}

function parseList(key: string, raw: string): string[] {
  const items = raw.split(",");
  if (items.some((item) => item === "" || item === "^"))
    throw bad(key, `expected a comma-separated list with no empty items, got ${shortQuote(raw)}`);
  if (items.length > ConstraintLimits.items) throw bad(key, `${items.length} items; at most ${ConstraintLimits.items} are accepted`);
  for (const item of items) parseName(key, item);
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
        throw bad(spelled, `${shortQuote(raw)} is not a known architecture (${Architectures.join(", ")})`);
      return raw;
    case "container":
      if (raw !== "" && !(ContainerTypes as readonly string[]).includes(raw))
        throw bad(spelled, `${shortQuote(raw)} is not a container type (${ContainerTypes.join(", ")})`);
      return raw;
    case "instanceType":
      return parseName(spelled, raw);
  }
}

/** Parses Juju's constraint syntax; throws INVALID_CONSTRAINTS naming the offending key. */
export function parseConstraints(text: string): Constraints {
  if (text.length > ConstraintLimits.text)
    throw new LifelineError(
      "INVALID_CONSTRAINTS",
      `constraints of ${text.length} characters; at most ${ConstraintLimits.text} are accepted`,
    );
  const result: Constraints = {};
  for (const word of text.trim().split(/\s+/).filter(Boolean)) {
    const eq = word.indexOf("=");
    if (eq <= 0)
      throw new LifelineError("INVALID_CONSTRAINTS", `malformed constraint ${shortQuote(word)}: expected key=value, e.g. mem=2G`);
    const spelled = word.slice(0, eq);
    const key = keyOf.get(spelled);
    if (!key)
      throw new LifelineError(
        "INVALID_CONSTRAINTS",
        `unknown constraint ${shortQuote(spelled)}: expected one of ${Object.values(spelling).join(", ")}`,
        { key: spelled },
      );
    if (key in result) throw bad(spelled, "already set");
    (result as Record<Key, unknown>)[key] = parseOne(key, spelled, word.slice(eq + 1));
  }
  return result;
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
