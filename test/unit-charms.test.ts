// What hook calls keep of a unit's charm (src/model/unit-charms.ts): read once a process, for as long as the unit lives.
import { describe, expect, it } from "vitest";
import type { CharmRow, UnitRow } from "../src/model/rows.js";
import { charmHooksOf, charmHooksRead, knowsCharmOf } from "../src/model/unit-charms.js";

const modelId = "00000000-0000-4000-8000-00000000c4a2";
const unit = (name: string, seq: number) => ({ modelId, name, seq }) as UnitRow;
const charm = (url: string, hooks: Record<string, string>) =>
  ({ modelId, url, name: "wordpress", hooks, metadata: { endpoints: [{ name: "db" }, { name: "website" }] } }) as unknown as CharmRow;

describe("a unit's charm as hook calls keep it", () => {
  it("is remembered by model and unit once read: its name, endpoints and the hooks it ships", () => {
    const wordpress0 = unit("wordpress/0", 1);
    expect(knowsCharmOf(modelId, "wordpress/0")).toBe(false);
    const hooks = charmHooksRead(wordpress0, charm("local:wordpress-1", { install: "#!/bin/sh\n" }));
    expect(knowsCharmOf(modelId, "wordpress/0")).toBe(true);
    expect(charmHooksOf(wordpress0)).toBe(hooks);
    expect(hooks).toMatchObject({ charm: "wordpress", endpoints: ["db", "website"] });
    expect([hooks.ships("install"), hooks.ships("start"), hooks.ships("constructor")]).toEqual([true, false, false]);
  });

  it("is not another unit's that had the same name: the unit's seq must be the one it was read for", () => {
    charmHooksRead(unit("wordpress/7", 10), charm("local:wordpress-1", {}));
    expect(charmHooksOf(unit("wordpress/7", 11))).toBeUndefined();
  });

  it("is one object for every unit of a charm", () => {
    const a = charmHooksRead(unit("mysql/0", 20), charm("local:mysql-3", {}));
    const b = charmHooksRead(unit("mysql/1", 21), charm("local:mysql-3", {}));
    expect(b).toBe(a);
  });
});
