// Conflicting operations racing on parallel connections end in one of their
// serial outcomes (docs/decisions.md, "Store and write path"). On PostgreSQL each race runs
// many times over real parallel connections; on PGlite (one connection) the
// same races serialize, and run fewer times.
import { describe, expect, it } from "vitest";
import { type Result, useApi } from "./support/api.js";
import { ADD_MACHINE, ADD_UNIT, deploy, INTEGRATE, integrate } from "./support/fixtures.js";
import { expectInvariants } from "./support/invariants.js";
import { LEAVE_SCOPE, lifecycle, REMOVE_APPLICATION, REMOVE_MACHINE } from "./support/lifecycle.js";
import { onPostgres } from "./support/store.js";

const api = useApi();
const ROUNDS = onPostgres ? 12 : 3;

const codes = (r: Result) => (r.errors ?? []).map((e) => e.extensions?.code);

describe("races end in a serial outcome", () => {
  it("remove an application while adding units to it", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const model = await api.newModel();
      await deploy(api, model, { charm: "wordpress", numUnits: 0 });
      const [removed, ...added] = await Promise.all([
        api.request(REMOVE_APPLICATION, { input: { model, applications: ["wordpress"] } }),
        ...Array.from({ length: 3 }, () => api.request(ADD_UNIT, { input: { model, application: "wordpress" } })),
      ]);
      expect(removed!.errors).toBeUndefined();
      for (const result of added) expect([[], ["NOT_ALIVE"], ["NOT_FOUND"]]).toContainEqual(codes(result));
      const survived = added.filter((r) => !r.errors).length;
      // Removed at once only when no unit was added first; otherwise Dying with exactly those units.
      expect(removed!.data.removeApplication[0].outcome).toBe(survived ? "DYING" : "REMOVED");
      await expectInvariants(api.store, model);
    }
  });

  it("integrate while either side is being removed", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const model = await api.newModel();
      await deploy(api, model, { charm: "wordpress", numUnits: 0 });
      await deploy(api, model, { charm: "mysql", numUnits: 0 });
      const [related, removed] = await Promise.all([
        api.request(INTEGRATE, { input: { model, endpoints: ["wordpress", "mysql"] } }),
        api.request(REMOVE_APPLICATION, { input: { model, applications: [round % 2 ? "wordpress" : "mysql"] } }),
      ]);
      expect(removed.errors).toBeUndefined();
      expect([[], ["NOT_ALIVE"], ["NOT_FOUND"]]).toContainEqual(codes(related));
      await expectInvariants(api.store, model);
      const status = await lifecycle(api, model).status();
      // Whichever came first, no relation survives with a removed application.
      expect(status.relations["wordpress:db mysql:db"]).toBeUndefined();
    }
  });

  it("the last two units of a Dying relation leave at once: it is removed exactly once", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const model = await api.newModel();
      await deploy(api, model, { charm: "wordpress" });
      await deploy(api, model, { charm: "mysql" });
      const rel = await integrate(api, model, "wordpress", "mysql");
      const l = lifecycle(api, model);
      await l.enter(rel.id, "wordpress/0");
      await l.enter(rel.id, "mysql/0");
      await l.removeApplication(["mysql"]);
      const results = await Promise.all(
        ["wordpress/0", "mysql/0"].map((unit) => api.request(LEAVE_SCOPE, { input: { model, relation: rel.id, unit } })),
      );
      expect(results.flatMap((r) => r.errors ?? [])).toEqual([]);
      expect(results.map((r) => r.data.leaveScope.relationRemoved).sort()).toEqual([false, true]);
      await expectInvariants(api.store, model);
      const status = await l.status();
      expect(status.relations[rel.key]).toBeUndefined();
      expect(status.applications.wordpress.relationCount).toBe(0);
    }
  });

  it("remove a machine while a unit is being placed on it", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const model = await api.newModel();
      await deploy(api, model, { charm: "wordpress", numUnits: 0 });
      await api.ok(ADD_MACHINE, { input: { model } });
      const [removed, placed] = await Promise.all([
        api.request(REMOVE_MACHINE, { input: { model, machines: ["1"] } }),
        api.request(ADD_UNIT, { input: { model, application: "wordpress", placement: ["1"] } }),
      ]);
      // Either the machine went Dying first (placement refused), or the unit landed first (removal refused).
      const outcome = [codes(removed), codes(placed)];
      expect([
        [[], ["NOT_ALIVE"]],
        [["HAS_UNITS"], []],
      ]).toContainEqual(outcome);
      await expectInvariants(api.store, model);
    }
  });

  it("two removals of one application at once: one takes effect, the other is a no-op", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const model = await api.newModel();
      await deploy(api, model, { charm: "wordpress", numUnits: 2 });
      const results = await Promise.all(
        [0, 1].map(() => api.request(REMOVE_APPLICATION, { input: { model, applications: ["wordpress"] } })),
      );
      expect(results.flatMap((r) => r.errors ?? [])).toEqual([]);
      expect(results.map((r) => r.data.removeApplication[0].outcome).sort()).toEqual(["DYING", "UNCHANGED"]);
      await expectInvariants(api.store, model);
    }
  });
});
