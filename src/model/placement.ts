// Juju's placement directives (`--to`): "3" an existing machine, "lxd:3" a new
// container on machine 3, "lxd" a new container on a new machine. No directive
// means a new machine.
import { LifelineError } from "../core/errors.js";
import { type ContainerType, ContainerTypes } from "../core/machine.js";
import { checkMachineId } from "./names.js";

export type Placement =
  | { kind: "new-machine" }
  | { kind: "machine"; machineId: string }
  | { kind: "container"; type: ContainerType; parentId: string | null };

const invalid = (directive: string, why: string) =>
  new LifelineError("INVALID_PLACEMENT", `invalid placement "${directive}": ${why}`, { directive });

const isContainerType = (word: string): word is ContainerType => (ContainerTypes as readonly string[]).includes(word);

export function parsePlacement(directive: string): Placement {
  const [head, rest, ...extra] = directive.split(":");
  if (extra.length || head === undefined || head === "")
    throw invalid(directive, 'expected a machine id ("3"), a container on a machine ("lxd:3") or a new container ("lxd")');
  if (rest === undefined) {
    if (isContainerType(head)) return { kind: "container", type: head, parentId: null };
    try {
      return { kind: "machine", machineId: checkMachineId(head) };
    } catch {
      throw invalid(directive, `"${head}" is neither a machine id nor a container type (${ContainerTypes.join(", ")})`);
    }
  }
  if (!isContainerType(head)) throw invalid(directive, `unknown container type "${head}" (expected ${ContainerTypes.join(", ")})`);
  try {
    return { kind: "container", type: head, parentId: checkMachineId(rest) };
  } catch {
    throw invalid(directive, `"${rest}" is not a machine id`);
  }
}

/** One directive per unit, in order; units beyond the list get new machines. */
export function parsePlacements(directives: readonly string[] | null | undefined, unitCount: number): Placement[] {
  const list = directives ?? [];
  if (list.length > unitCount)
    throw new LifelineError(
      "INVALID_PLACEMENT",
      `${list.length} placement directives given for ${unitCount} unit(s): give at most one per unit`,
    );
  const parsed = list.map(parsePlacement);
  while (parsed.length < unitCount) parsed.push({ kind: "new-machine" });
  return parsed;
}
