// "Why is it still here?" answers with the very checks the operations make: an
// agent refused setUnitDead / setMachineDead / a final removal finds the same
// cause, with the same entities, in the entity's blockers, and once the
// blockers name nothing that holds it, the operation goes through.
import { describe, expect, it } from "vitest";
import { type GraphQLErrorShape, useApi } from "./support/api.js";
import { ADD_MACHINE, deploy, integrate } from "./support/fixtures.js";
import { lifecycle, REMOVE_DEAD_MACHINE, REMOVE_DEAD_UNIT, SET_MACHINE_DEAD, SET_UNIT_DEAD } from "./support/lifecycle.js";

const api = useApi();

/** Each refusal code, the blocker kind that names the same cause, and where the refusal lists the entities. */
const causes: Record<string, { kind: string; entities: (e: GraphQLErrorShape["extensions"]) => string[] }> = {
  IN_SCOPE: { kind: "IN_SCOPE", entities: (e) => (e!.relations as number[]).map(String) },
  HAS_SUBORDINATES: { kind: "SUBORDINATES", entities: (e) => e!.subordinates as string[] },
  HAS_UNITS: { kind: "ASSIGNED_UNITS", entities: (e) => e!.units as string[] },
  HAS_CONTAINERS: { kind: "CONTAINERS", entities: (e) => e!.containers as string[] },
};

type Blocker = { kind: string; message: string; entities: string[] };
/** The blockers that hold the entity (as opposed to queued work or an agent yet to act). */
const holding = (blockers: Blocker[]) => blockers.filter((b) => b.kind !== "PENDING_CLEANUP" && b.kind !== "AGENT");

async function setup() {
  const model = await api.newModel();
  const l = lifecycle(api, model);
  const blockersOf = {
    unit: async (name: string): Promise<Blocker[]> => (await l.status()).units[name].blockers,
    machine: async (id: string): Promise<Blocker[]> => (await l.status()).machines[id].blockers,
  };
  /** Runs an agent operation that must be refused; returns the refusal's code and the entities it names. */
  const refusal = async (query: string, input: Record<string, unknown>) => {
    const result = await api.request(query, { input: { model, ...input } });
    expect(result.errors, "expected a refusal").toHaveLength(1);
    return result.errors![0]!;
  };
  /** The refusal names the first cause the blockers list, with the same entities. */
  const expectNamedByBlockers = (error: GraphQLErrorShape, blockers: Blocker[]) => {
    const cause = causes[error.extensions!.code!];
    expect(cause, `refusal ${error.extensions?.code} maps to a blocker kind`).toBeDefined();
    expect(holding(blockers)[0]).toEqual({ kind: cause!.kind, message: expect.any(String), entities: cause!.entities(error.extensions) });
  };
  return { model, l, blockersOf, refusal, expectNamedByBlockers };
}

describe("blockers name what the operations check", () => {
  it("setUnitDead and the final removal of a unit, walked from every hold to none", async () => {
    const { model, l, blockersOf, refusal, expectNamedByBlockers } = await setup();
    await deploy(api, model, { charm: "wordpress" });
    await deploy(api, model, { charm: "mysql", numUnits: 0 });
    await deploy(api, model, { charm: "logging" });
    const db = await integrate(api, model, "wordpress", "mysql");
    const log = await integrate(api, model, "logging", "wordpress");
    await l.enter(db.id, "wordpress/0");
    await l.enter(log.id, "wordpress/0"); // creates logging/0
    await l.removeUnit(["wordpress/0"]);

    // In two scopes, with a subordinate: refused for the scopes first; the blockers list both holds.
    let error = await refusal(SET_UNIT_DEAD, { unit: "wordpress/0" });
    expect(error.extensions?.code).toBe("IN_SCOPE");
    let blockers = await blockersOf.unit("wordpress/0");
    expectNamedByBlockers(error, blockers);
    expect(holding(blockers).map((b) => b.kind)).toEqual(["IN_SCOPE", "SUBORDINATES"]);
    expect((await refusal(REMOVE_DEAD_UNIT, { unit: "wordpress/0" })).extensions?.code).toBe("NOT_DEAD");

    // Out of scope: the subordinate is what is left, in the refusal and in the blockers.
    await l.leave(db.id, "wordpress/0");
    await l.leave(log.id, "wordpress/0");
    error = await refusal(SET_UNIT_DEAD, { unit: "wordpress/0" });
    expect(error.extensions?.code).toBe("HAS_SUBORDINATES");
    blockers = await blockersOf.unit("wordpress/0");
    expectNamedByBlockers(error, blockers);
    expect(holding(blockers).map((b) => b.kind)).toEqual(["SUBORDINATES"]);

    // Nothing holds it: the blockers say only that its agent has to act, and the agent's act succeeds.
    await l.setUnitDead("logging/0");
    await l.removeDeadUnit("logging/0");
    expect((await refusal(REMOVE_DEAD_UNIT, { unit: "wordpress/0" })).extensions?.code).toBe("NOT_DEAD");
    expect((await blockersOf.unit("wordpress/0")).map((b) => b.kind)).toEqual(["AGENT"]);
    expect(await l.setUnitDead("wordpress/0")).toEqual({ name: "wordpress/0", life: "DEAD" });
    await l.removeDeadUnit("wordpress/0");
  });

  it("setMachineDead and the final removal of a machine, walked from every hold to none", async () => {
    const { model, l, blockersOf, refusal, expectNamedByBlockers } = await setup();
    const id = (await api.ok(ADD_MACHINE, { input: { model } })).addMachine.id as string;
    await deploy(api, model, { charm: "wordpress", placement: [id] });
    const container = (await api.ok(ADD_MACHINE, { input: { model, parent: id, containerType: "LXD" } })).addMachine.id as string;
    await l.removeMachine([id], { force: true, maxWait: 3600 });

    let error = await refusal(SET_MACHINE_DEAD, { machine: id });
    expect(error.extensions?.code).toBe("HAS_UNITS");
    let blockers = await blockersOf.machine(id);
    expectNamedByBlockers(error, blockers);
    expect(holding(blockers).map((b) => b.kind)).toEqual(["ASSIGNED_UNITS", "CONTAINERS"]);
    expect((await refusal(REMOVE_DEAD_MACHINE, { machine: id })).extensions?.code).toBe("NOT_DEAD");

    await l.removeUnit(["wordpress/0"]);
    await l.retire("wordpress/0", []);
    error = await refusal(SET_MACHINE_DEAD, { machine: id });
    expect(error.extensions?.code).toBe("HAS_CONTAINERS");
    blockers = await blockersOf.machine(id);
    expectNamedByBlockers(error, blockers);
    expect(holding(blockers).map((b) => b.kind)).toEqual(["CONTAINERS"]);

    await l.removeMachine([container]);
    await l.setMachineDead(container);
    await l.removeDeadMachine(container);
    // Only the queued forced fallback is left, which the machine agent need not wait for.
    expect((await blockersOf.machine(id)).map((b) => b.kind)).toEqual(["PENDING_CLEANUP"]);
    expect(await l.setMachineDead(id)).toEqual({ id, life: "DEAD" });
    await l.removeDeadMachine(id);
  });

  it("the manager machine's refusal is about its job, not a hold: it stays Alive, with no blockers", async () => {
    const { l, blockersOf, refusal } = await setup();
    expect((await refusal(SET_MACHINE_DEAD, { machine: "0" })).extensions?.code).toBe("MACHINE_MANAGES_MODEL");
    expect((await l.status()).machines["0"].life).toBe("ALIVE");
    expect(await blockersOf.machine("0")).toEqual([]);
  });
});
