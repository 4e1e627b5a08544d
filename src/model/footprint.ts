// What an operation touches, declared so that a group's writers (src/model/write/group-commit.ts) whose footprints cannot
// meet run side by side: their statements travel together, a round trip for all of them instead of one each.
//
// A footprint names the entities an operation may read or write, each with how it uses it. Two writers may run side
// by side when every entity both touch is only read by both, or only added to by both (a relation's member count: the
// addition is done in SQL, so either order gives the same sum, and neither reads the count). Anything else between
// them (a write and a read, two writes) keeps them in order. An operation without a footprint runs alone, as every
// operation did before, and so does one whose footprint its input cannot tell (it returns undefined).

/** How an operation uses an entity. */
export type Access = "read" | "add" | "write";

/** The entities an operation touches, by key, each with its use. */
export type Footprint = ReadonlyMap<string, Access>;

/** The keys footprints use: an entity's kind and its name in the model (the model is the group's own). */
export const entity = {
  /** A unit's row and what is its alone: its agent's state, credentials and hook runs, its memberships and their settings. */
  unit: (name: string) => `unit ${name}`,
  /** A machine's row and its agent's credentials. */
  machine: (id: string) => `machine ${id}`,
  /** A relation's row (its life, scope, endpoints). */
  relation: (id: number) => `relation ${id}`,
  /** A relation's member count. */
  relationMembers: (id: number) => `relation ${id} members`,
  /** An application's unit count. */
  applicationUnits: (name: string) => `application ${name} units`,
  /** The containers on a machine. */
  machineContainers: (id: string) => `machine ${id} containers`,
  /** Which units are assigned to which machines, model-wide: a unit's removal names the unit, not its machine. */
  unitAssignments: "unit assignments",
};

/** A footprint of these uses. */
export function touching(...uses: readonly (readonly [string, Access])[]): Footprint {
  const footprint = new Map<string, Access>();
  for (const [key, access] of uses) {
    const had = footprint.get(key);
    footprint.set(key, had === undefined || had === access ? access : "write"); // two different uses of one entity: as a write
  }
  return footprint;
}

/** An operation on one unit that touches nothing but what is that unit's (entity.unit). */
export const unitAlone = (input: { unit: string }): Footprint => touching([entity.unit(input.unit), "write"]);

/** Whether two uses of one entity may run side by side: both reads, or both additions. */
const compatible = (a: Access, b: Access) => a === b && a !== "write";

/** The footprints of writers running side by side, to decide whether another may join them. */
export class SideBySide {
  private readonly uses = new Map<string, Access>();

  /** Whether `footprint` can meet none of those already here; if it cannot, it joins them. */
  join(footprint: Footprint): boolean {
    for (const [key, access] of footprint) {
      const there = this.uses.get(key);
      if (there !== undefined && !compatible(there, access)) return false;
    }
    for (const [key, access] of footprint) this.uses.set(key, access);
    return true;
  }
}
