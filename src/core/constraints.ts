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
