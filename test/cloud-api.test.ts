// The dummy cloud's admin API: what it offers and runs, and the faults an admin
// (or a test outside the process) injects. Refusals carry codes and change nothing.
import { describe, expect, it } from "vitest";
import { DummyProvider } from "../src/provider/dummy.js";
import { useLiveServer } from "./support/streams.js";

const provider = new DummyProvider();
const live = useLiveServer({}, { provider });
const CLOUD = `{ cloud { name zones failingStarts refusing instanceTypes { name arch } instances { id model machineId status } } }`;
const codes = (result: { errors?: any[] }) => result.errors?.map((e) => e.extensions.code);

describe("the cloud's admin API", () => {
  it("lists the catalog, the zones and the instances", async () => {
    const started = await provider.startInstance({ model: "m", machineId: "1", series: "jammy", constraints: {} });
    const { cloud } = await live.ok(CLOUD);
    expect(cloud.name).toBe("dummy");
    expect(cloud.zones).toEqual(["zone-a", "zone-b", "zone-c"]);
    expect(cloud.instanceTypes.map((t: any) => t.arch)).toContain("arm64");
    expect(cloud.instances).toContainEqual({ id: started.id, model: "m", machineId: "1", status: "running" });
  });

  it("arms transient start failures, and disarms them with 0", async () => {
    const FAIL = `mutation ($count: Int!, $message: String) { failNextStarts(count: $count, message: $message) { failingStarts failureMessage } }`;
    expect((await live.ok(FAIL, { count: 2, message: "zone-a is full" })).failNextStarts).toEqual({
      failingStarts: 2,
      failureMessage: "zone-a is full",
    });
    await expect(provider.startInstance({ model: "m", machineId: "2", series: "jammy", constraints: {} })).rejects.toThrow(
      "zone-a is full",
    );
    expect((await live.ok(FAIL, { count: 0 })).failNextStarts.failingStarts).toBe(0);
  });

  it("refuses constraints, and stops refusing with null", async () => {
    const REFUSE = `mutation ($constraints: String) { refuseConstraints(constraints: $constraints) { refusing } }`;
    expect((await live.ok(REFUSE, { constraints: "mem=64G" })).refuseConstraints.refusing).toBe("mem=64G");
    await expect(provider.startInstance({ model: "m", machineId: "3", series: "jammy", constraints: { mem: 65536 } })).rejects.toThrow();
    expect((await live.ok(REFUSE, { constraints: null })).refuseConstraints.refusing).toBeNull();
  });

  it("loses an instance", async () => {
    const started = await provider.startInstance({ model: "m", machineId: "4", series: "jammy", constraints: {} });
    const LOSE = `mutation ($id: String!) { loseInstance(id: $id) { id status } }`;
    expect((await live.ok(LOSE, { id: started.id })).loseInstance).toEqual({ id: started.id, status: "lost" });
  });

  it("bad input is INVALID_ARGUMENT and arms nothing: a negative count, a rule that does not parse, an unknown instance", async () => {
    const before = (await live.ok(CLOUD)).cloud;
    expect(codes(await live.post(`mutation { failNextStarts(count: -1) { failingStarts } }`))).toEqual(["INVALID_ARGUMENT"]);
    expect(codes(await live.post(`mutation { refuseConstraints(constraints: "mem=lots") { refusing } }`))).toEqual(["INVALID_ARGUMENT"]);
    expect(codes(await live.post(`mutation { loseInstance(id: "dummy-999") { id } }`))).toEqual(["INVALID_ARGUMENT"]);
    expect((await live.ok(CLOUD)).cloud).toEqual(before);
  });
});
