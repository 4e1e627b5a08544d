// Which of a group's writers may run side by side (src/model/footprint.ts): those whose footprints cannot meet.
import { describe, expect, it } from "vitest";
import { type Access, entity, SideBySide, touching } from "../src/model/footprint.js";

/** Whether writers of these footprints, in this order, all run side by side. */
function allSideBySide(...footprints: (readonly (readonly [string, Access])[])[]): boolean {
  const running = new SideBySide();
  return footprints.every((uses) => running.join(touching(...uses)));
}

const unit = (name: string, access: Access = "write") => [entity.unit(name), access] as const;

describe("footprints", () => {
  it("writers of different entities run side by side", () => {
    expect(allSideBySide([unit("web/0")], [unit("web/1")], [[entity.machine("0"), "write"]])).toBe(true);
  });

  it("two writers of one entity do not", () => {
    expect(allSideBySide([unit("web/0")], [unit("web/0")])).toBe(false);
  });

  it("a writer and a reader of one entity do not, whichever comes first", () => {
    expect(allSideBySide([unit("web/0")], [unit("web/0", "read")])).toBe(false);
    expect(allSideBySide([unit("web/0", "read")], [unit("web/0")])).toBe(false);
  });

  it("readers of one entity do", () => {
    expect(allSideBySide([unit("web/0", "read")], [unit("web/0", "read")])).toBe(true);
  });

  it("additions to one counter do (the sum is the same in either order), but not beside a reader of it", () => {
    const members = entity.relationMembers(3);
    expect(allSideBySide([[members, "add"]], [[members, "add"]])).toBe(true);
    expect(allSideBySide([[members, "add"]], [[members, "read"]])).toBe(false);
  });

  it("an entity a footprint uses two ways counts as written", () => {
    expect(touching(unit("web/0", "read"), unit("web/0", "add")).get(entity.unit("web/0"))).toBe("write");
  });

  it("a writer that cannot join leaves those running as they were: the next may still join them", () => {
    const running = new SideBySide();
    expect(running.join(touching(unit("web/0")))).toBe(true);
    expect(running.join(touching(unit("web/1"), unit("web/0")))).toBe(false);
    expect(running.join(touching(unit("web/1")))).toBe(true);
  });
});
