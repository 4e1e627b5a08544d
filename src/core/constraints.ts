// Juju's constraints in their parsed form (`mem=2G cores=4` → { mem: 2048, cores: 4 }):
// the one shape the store keeps, the change log carries and a provider is handed.
// Parsing and merging are rules, in src/model/constraints.ts.
export interface Constraints {
  arch?: string;
  /** Ignored by providers: containers are made on a machine, not by the cloud. */
  container?: string;
  cores?: number;
  cpuPower?: number;
  /** Names one instance type; the other keys must still hold for it. */
  instanceType?: string;
  /** MiB. */
  mem?: number;
  /** MiB. */
  rootDisk?: number;
  /** Tags the instance must have; `^tag` is a tag it must not have. */
  tags?: string[];
  /** The zones the instance may be placed in. */
  zones?: string[];
}

/** Juju's spelling of each key, in the order Juju prints them. */
export const constraintSpelling: Readonly<Record<keyof Constraints, string>> = {
  arch: "arch",
  container: "container",
  cores: "cores",
  cpuPower: "cpu-power",
  instanceType: "instance-type",
  mem: "mem",
  rootDisk: "root-disk",
  tags: "tags",
  zones: "zones",
};

/** Sizes' suffixes in MiB, as Juju reads and prints them. */
export const megabytes: Record<string, number> = { M: 1, G: 1024, T: 1024 ** 2, P: 1024 ** 3 };

function formatSize(mb: number): string {
  if (mb === 0) return "";
  for (const suffix of ["P", "T", "G"] as const) if (mb % megabytes[suffix]! === 0) return `${mb / megabytes[suffix]!}${suffix}`;
  return `${mb}M`;
}

/** Prints constraints in Juju's syntax and key order; `parseConstraints(formatConstraints(c))` equals `c`. */
export function formatConstraints(constraints: Constraints): string {
  const words: string[] = [];
  for (const [key, spelled] of Object.entries(constraintSpelling) as [keyof Constraints, string][]) {
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
