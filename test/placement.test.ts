// Specification of Juju's placement directives (`juju deploy --to`): "3" an
// existing machine, "lxd:3" a new container on machine 3, "lxd" a new
// container on a new machine; no directive means a new machine.
import { describe, expect, it } from "vitest";
import type { LifelineError } from "../src/core/errors.js";
import { parsePlacement, parsePlacements } from "../src/model/placement.js";
import { expectRefusedWith, refusal } from "./support/refusal.js";

/** Asserts `directive` is refused with INVALID_PLACEMENT, naming the directive and every fragment. */
function expectRefused(directive: string, ...named: string[]): LifelineError {
  const error = expectRefusedWith("INVALID_PLACEMENT", () => parsePlacement(directive));
  expect(error.message).toContain(`"${directive}"`);
  expect(error.details).toEqual({ directive });
  for (const fragment of named) expect(error.message).toContain(fragment);
  return error;
}

describe("parsePlacement: accepted directives", () => {
  it('"3" places on existing machine 3', () => {
    expect(parsePlacement("3")).toEqual({ kind: "machine", machineId: "3" });
  });

  it('"0" places on existing machine 0', () => {
    expect(parsePlacement("0")).toEqual({ kind: "machine", machineId: "0" });
  });

  it('"1/lxd/0" places on an existing container machine', () => {
    expect(parsePlacement("1/lxd/0")).toEqual({ kind: "machine", machineId: "1/lxd/0" });
  });

  it('"lxd:3" places in a new lxd container on machine 3', () => {
    expect(parsePlacement("lxd:3")).toEqual({ kind: "container", type: "lxd", parentId: "3" });
  });

  it('"kvm:0" places in a new kvm container on machine 0', () => {
    expect(parsePlacement("kvm:0")).toEqual({ kind: "container", type: "kvm", parentId: "0" });
  });

  it('"lxd:1/kvm/2" places in a new container inside an existing container', () => {
    expect(parsePlacement("lxd:1/kvm/2")).toEqual({ kind: "container", type: "lxd", parentId: "1/kvm/2" });
  });

  it('"lxd" places in a new lxd container on a new machine', () => {
    expect(parsePlacement("lxd")).toEqual({ kind: "container", type: "lxd", parentId: null });
  });

  it('"kvm" places in a new kvm container on a new machine', () => {
    expect(parsePlacement("kvm")).toEqual({ kind: "container", type: "kvm", parentId: null });
  });
});

describe("parsePlacement: refusals (INVALID_PLACEMENT, naming the directive)", () => {
  it("refuses an empty directive", () => {
    expectRefused("", "machine id");
  });

  it('refuses "foo": neither a machine id nor a container type', () => {
    expectRefused("foo", '"foo"', "lxd", "kvm");
  });

  it('refuses "lxd:" (a container type with no machine)', () => {
    expectRefused("lxd:", "not a machine id");
  });

  it('refuses "docker:1" (an unknown container type)', () => {
    expectRefused("docker:1", '"docker"', "lxd", "kvm");
  });

  it('refuses "1:2:3" (too many parts)', () => {
    expectRefused("1:2:3");
  });

  it('refuses "-1" (a negative machine id)', () => {
    expectRefused("-1", '"-1"');
  });

  it('refuses "01" (a machine id with a leading zero)', () => {
    expectRefused("01", '"01"');
  });

  it('refuses ":3" (a machine with no container type)', () => {
    expectRefused(":3");
  });

  it('refuses "lxd:foo" (a container on a non-machine), naming the bad machine', () => {
    expectRefused("lxd:foo", '"foo"', "not a machine id");
  });

  it('refuses "1/docker/0" (a container id of an unknown type)', () => {
    expectRefused("1/docker/0", '"1/docker/0"');
  });

  it('refuses "LXD" (container types are lower case)', () => {
    expectRefused("LXD", '"LXD"');
  });
});

describe("parsePlacements", () => {
  it("with no directives every unit gets a new machine", () => {
    expect(parsePlacements(undefined, 2)).toEqual([{ kind: "new-machine" }, { kind: "new-machine" }]);
    expect(parsePlacements(null, 1)).toEqual([{ kind: "new-machine" }]);
    expect(parsePlacements([], 3)).toEqual([{ kind: "new-machine" }, { kind: "new-machine" }, { kind: "new-machine" }]);
  });

  it("gives one directive per unit, in order", () => {
    expect(parsePlacements(["3", "lxd:1", "kvm"], 3)).toEqual([
      { kind: "machine", machineId: "3" },
      { kind: "container", type: "lxd", parentId: "1" },
      { kind: "container", type: "kvm", parentId: null },
    ]);
  });

  it("pads units beyond the directives with new machines", () => {
    expect(parsePlacements(["3"], 3)).toEqual([{ kind: "machine", machineId: "3" }, { kind: "new-machine" }, { kind: "new-machine" }]);
  });

  it("zero units with no directives gives no placements", () => {
    expect(parsePlacements([], 0)).toEqual([]);
  });

  it("refuses more directives than units, naming both counts", () => {
    const error = refusal(() => parsePlacements(["1", "2", "3"], 2));
    expect(error.code).toBe("INVALID_PLACEMENT");
    expect(error.message).toContain("3 placement directives");
    expect(error.message).toContain("2 unit(s)");
  });

  it("refuses any directive for zero units", () => {
    const error = refusal(() => parsePlacements(["1"], 0));
    expect(error.code).toBe("INVALID_PLACEMENT");
    expect(error.message).toContain("0 unit(s)");
  });

  it("refuses a list containing a bad directive, naming that directive", () => {
    const error = refusal(() => parsePlacements(["3", "docker:1"], 2));
    expect(error.code).toBe("INVALID_PLACEMENT");
    expect(error.message).toContain('"docker:1"');
  });
});
