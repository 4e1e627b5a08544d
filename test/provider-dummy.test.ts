// Specification of the dummy provider (src/provider): Juju's constraint
// matching against its catalog, its ids, zones and addresses, its injected
// faults, and the hooks the server runs machine agents from.
import { describe, expect, it, vi } from "vitest";
import { DummyProvider, type InstanceChanged, type InstanceStarted } from "../src/provider/dummy.js";
import { DummyInstanceTypes, matchInstanceType } from "../src/provider/instance-types.js";
import { type InstanceConstraints, ProviderError, type StartInstanceParams } from "../src/provider/provider.js";

const G = 1024;

let machines = 0;
const params = (constraints: InstanceConstraints = {}, extra: Partial<StartInstanceParams> = {}): StartInstanceParams => ({
  model: "m",
  machineId: String(machines++),
  series: "jammy",
  constraints,
  ...extra,
});

/** The instance type the dummy provider picks for `constraints`. */
async function typeFor(constraints: InstanceConstraints): Promise<string> {
  const instance = await new DummyProvider().startInstance(params(constraints));
  return instance.hardware.instanceType;
}

/** Expects the start to be refused with a ProviderError; returns it. */
async function refused(provider: DummyProvider, constraints: InstanceConstraints): Promise<ProviderError> {
  const error = await provider.startInstance(params(constraints)).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe("matching: the cheapest type that satisfies every constraint", () => {
  it("no constraints get the smallest amd64 type", async () => {
    expect(await typeFor({})).toBe("d1.small");
  });

  it("the smallest matching type is chosen by memory, not by catalog order", async () => {
    // d1.xlarge (32G) is listed before c1.large (8G); both have 8 cores.
    expect(await typeFor({ cores: 8 })).toBe("c1.large");
  });

  it("a tie on memory goes to fewer cores, whatever the catalog order", () => {
    const reversed = [...DummyInstanceTypes].reverse();
    // d1.large and c1.large both have 8G; d1.large has 4 cores, c1.large 8.
    expect(matchInstanceType({ mem: 8 * G }, reversed).name).toBe("d1.large");
    expect(matchInstanceType({ mem: 8 * G }, DummyInstanceTypes).name).toBe("d1.large");
  });

  it("the started instance reports the chosen type's hardware", async () => {
    const instance = await new DummyProvider().startInstance(params({ cores: 3 }));
    expect(instance.hardware).toEqual({
      arch: "amd64",
      cores: 4,
      cpuPower: 400,
      mem: 8 * G,
      rootDisk: 64 * G,
      instanceType: "d1.large",
      zone: "zone-a",
      tags: ["hdd"],
    });
  });
});

describe("matching: each constraint key is honoured", () => {
  it("arch picks that arch's smallest type", async () => {
    expect(await typeFor({ arch: "arm64" })).toBe("a1.medium");
  });

  it("cores is a minimum", async () => {
    expect(await typeFor({ cores: 3 })).toBe("d1.large");
  });

  it("cpu-power is a minimum", async () => {
    expect(await typeFor({ cpuPower: 900 })).toBe("c1.large");
    expect(await typeFor({ cpuPower: 1100 })).toBe("g1.xlarge");
  });

  it("mem is a minimum, in MiB", async () => {
    expect(await typeFor({ mem: 4 * G })).toBe("d1.medium");
    expect(await typeFor({ mem: 4 * G + 1 })).toBe("d1.large");
  });

  it("root-disk is a minimum, in MiB", async () => {
    expect(await typeFor({ rootDisk: 100 * G })).toBe("d1.xlarge");
  });

  it("instance-type names a type directly, its arch included", async () => {
    expect(await typeFor({ instanceType: "d1.xlarge" })).toBe("d1.xlarge");
    const instance = await new DummyProvider().startInstance(params({ instanceType: "a1.large" }));
    expect(instance.hardware.arch).toBe("arm64");
  });

  it("tags are required tags", async () => {
    expect(await typeFor({ tags: ["ssd"] })).toBe("d1.medium");
    expect(await typeFor({ tags: ["gpu"] })).toBe("g1.xlarge");
  });

  it("a ^tag is a tag the type must not have", async () => {
    // The smallest 2-core type, d1.medium, has ssd.
    expect(await typeFor({ cores: 2, tags: ["^ssd"] })).toBe("d1.large");
  });

  it("zones restricts the zone the instance is placed in", async () => {
    const provider = new DummyProvider();
    for (let i = 0; i < 3; i++) expect((await provider.startInstance(params({ zones: ["zone-b"] }))).hardware.zone).toBe("zone-b");
  });

  it("zones are assigned round-robin among the allowed zones", async () => {
    const provider = new DummyProvider();
    const zones: string[] = [];
    for (let i = 0; i < 4; i++) zones.push((await provider.startInstance(params())).hardware.zone);
    for (let i = 0; i < 2; i++) zones.push((await provider.startInstance(params({ zones: ["zone-a", "zone-c"] }))).hardware.zone);
    expect(zones).toEqual(["zone-a", "zone-b", "zone-c", "zone-a", "zone-c", "zone-a"]);
  });

  it("empty constraint values are no constraint", async () => {
    expect(await typeFor({ arch: "", cores: 0, mem: 0, instanceType: "", tags: [], zones: [] })).toBe("d1.small");
  });

  it("container is ignored", async () => {
    expect(await typeFor({ container: "lxd" })).toBe("d1.small");
  });
});

describe("matching: an unsatisfiable constraint is refused, naming it", () => {
  const provider = new DummyProvider();

  it("mem beyond the largest type names mem and the largest", async () => {
    const error = await refused(provider, { mem: 512 * G });
    expect(error.message).toBe("no instance type satisfies mem=512G (largest: 256G)");
    expect(error.transient).toBe(false);
  });

  it("a constraint unsatisfiable only with another names both", async () => {
    const error = await refused(provider, { arch: "arm64", mem: 128 * G });
    expect(error.message).toBe("no instance type satisfies mem=128G with arch=arm64 (largest: 64G)");
  });

  it("cores, cpu-power and root-disk are named when too large", async () => {
    expect((await refused(provider, { cores: 32 })).message).toContain("cores=32 (largest: 16)");
    expect((await refused(provider, { cpuPower: 5000 })).message).toContain("cpu-power=5000 (largest: 1600)");
    expect((await refused(provider, { rootDisk: 1024 * G })).message).toContain("root-disk=1T (largest: 512G)");
  });

  it("an unknown arch is named with the arches offered", async () => {
    expect((await refused(provider, { arch: "s390x" })).message).toBe(
      "no instance type satisfies arch=s390x (arches offered: amd64, arm64)",
    );
  });

  it("an unknown instance type is named with the known ones", async () => {
    const error = await refused(provider, { instanceType: "m5.large" });
    expect(error.message).toMatch(/^no instance type satisfies instance-type=m5\.large \(known: /);
    for (const type of DummyInstanceTypes) expect(error.message).toContain(type.name);
  });

  it("an instance type that contradicts another constraint names that constraint", async () => {
    expect((await refused(provider, { instanceType: "d1.small", mem: 4 * G })).message).toBe(
      "no instance type satisfies mem=4G with instance-type=d1.small (largest: 2G)",
    );
  });

  it("unsatisfiable tags are named with the tags offered", async () => {
    expect((await refused(provider, { arch: "arm64", tags: ["gpu"] })).message).toBe(
      "no instance type satisfies tags=gpu with arch=arm64 (tags offered: ssd)",
    );
  });

  it("zones the cloud lacks are named with the zones offered", async () => {
    const error = await refused(provider, { zones: ["zone-x"] });
    expect(error.message).toBe("no zone satisfies zones=zone-x (zones offered: zone-a, zone-b, zone-c)");
    expect(error.transient).toBe(false);
  });

  it("a refused start leaves no instance", async () => {
    const fresh = new DummyProvider();
    await refused(fresh, { mem: 512 * G });
    expect(await fresh.listInstances()).toEqual([]);
  });
});

describe("instances: ids and addresses", () => {
  it("ids count up and are never reused, even after a stop", async () => {
    const provider = new DummyProvider();
    const first = await provider.startInstance(params());
    const second = await provider.startInstance(params());
    await provider.stopInstances([first.id, second.id]);
    const third = await provider.startInstance(params());
    expect([first.id, second.id, third.id]).toEqual(["dummy-0", "dummy-1", "dummy-2"]);
  });

  it("each instance gets a private 10.x address and a public documentation-range one, distinct per instance", async () => {
    const provider = new DummyProvider();
    const instances = [];
    for (let i = 0; i < 3; i++) instances.push(await provider.startInstance(params()));
    expect(instances.map((instance) => instance.addresses)).toEqual([
      ["10.0.0.1", "203.0.113.1"],
      ["10.0.0.2", "203.0.113.2"],
      ["10.0.0.3", "203.0.113.3"],
    ]);
  });

  it("the instance records the model, machine and series it was started for", async () => {
    const instance = await new DummyProvider().startInstance({ model: "prod", machineId: "7", series: "noble", constraints: {} });
    expect(instance).toMatchObject({ model: "prod", machineId: "7", series: "noble", status: "running" });
  });

  it("listed instances are copies: changing one does not change the provider", async () => {
    const provider = new DummyProvider();
    const started = await provider.startInstance(params());
    started.status = "stopped";
    started.hardware.tags.push("gpu");
    const [listed] = await provider.listInstances();
    expect(listed).toMatchObject({ status: "running", hardware: { tags: ["hdd"] } });
  });
});

describe("faults: failNextStarts", () => {
  it("fails exactly the next N starts, transiently, then succeeds", async () => {
    const provider = new DummyProvider();
    provider.failNextStarts(2, "zone-a is out of capacity");
    for (let i = 0; i < 2; i++) {
      const error = await refused(provider, {});
      expect(error.message).toBe("zone-a is out of capacity");
      expect(error.transient).toBe(true);
    }
    expect((await provider.startInstance(params())).id).toBe("dummy-0");
  });

  it("a start refused for its constraints does not use up an injected failure", async () => {
    const provider = new DummyProvider();
    provider.failNextStarts(1);
    expect((await refused(provider, { mem: 512 * G })).transient).toBe(false);
    expect((await refused(provider, {})).transient).toBe(true);
    await provider.startInstance(params());
  });

  it("a count that is not a whole number is refused", () => {
    expect(() => new DummyProvider().failNextStarts(-1)).toThrow(RangeError);
  });
});

describe("faults: refuseConstraints", () => {
  it("refuses starts asking for at least the rule's numbers, permanently", async () => {
    const provider = new DummyProvider();
    provider.refuseConstraints("mem=16G");
    const error = await refused(provider, { mem: 32 * G });
    expect(error.transient).toBe(false);
    expect(error.message).toBe("the dummy provider refuses starts asking for mem=16G; this one asks for mem=32G");
    await refused(provider, { mem: 16 * G });
  });

  it("lets through starts asking for less, or not asking", async () => {
    const provider = new DummyProvider();
    provider.refuseConstraints("mem=16G");
    await provider.startInstance(params({ mem: 8 * G }));
    await provider.startInstance(params({ cores: 16 }));
    expect(await provider.listInstances()).toHaveLength(2);
  });

  it("refuses only starts matching every word of the rule", async () => {
    const provider = new DummyProvider();
    provider.refuseConstraints("arch=arm64 tags=ssd");
    await provider.startInstance(params({ arch: "arm64" }));
    await provider.startInstance(params({ tags: ["ssd"] }));
    await refused(provider, { arch: "arm64", tags: ["ssd"] });
  });

  it("a list word refuses only starts asking for every item of it", async () => {
    const provider = new DummyProvider();
    provider.refuseConstraints("tags=ssd,gpu");
    await provider.startInstance(params({ tags: ["ssd"] }));
    await refused(provider, { tags: ["gpu", "ssd"] });
  });

  it("stops refusing when cleared with null", async () => {
    const provider = new DummyProvider();
    provider.refuseConstraints("cores=4");
    await refused(provider, { cores: 4 });
    provider.refuseConstraints(null);
    expect((await provider.startInstance(params({ cores: 4 }))).hardware.cores).toBeGreaterThanOrEqual(4);
  });

  it("a malformed rule is refused, naming the bad word", () => {
    const provider = new DummyProvider();
    expect(() => provider.refuseConstraints("memory=4G")).toThrow(/"memory" is not a constraint key/);
    expect(() => provider.refuseConstraints("mem=4X")).toThrow(/mem=4X/);
    expect(() => provider.refuseConstraints("")).toThrow(RangeError);
  });
});

describe("faults: loseInstance", () => {
  it("marks the instance lost, still listed", async () => {
    const provider = new DummyProvider();
    const instance = await provider.startInstance(params());
    provider.loseInstance(instance.id);
    expect(await provider.listInstances()).toEqual([{ ...instance, status: "lost" }]);
  });

  it("fires onLost once", async () => {
    const provider = new DummyProvider();
    const lost: InstanceChanged[] = [];
    provider.onLost((event) => lost.push(event));
    const instance = await provider.startInstance(params());
    provider.loseInstance(instance.id);
    provider.loseInstance(instance.id);
    expect(lost).toEqual([{ instance: { ...instance, status: "lost" } }]);
  });

  it("refuses an id that names no instance", () => {
    expect(() => new DummyProvider().loseInstance("dummy-9")).toThrow(/dummy-9/);
  });
});

describe("stopInstances", () => {
  it("removes the instances from the list, lost ones included", async () => {
    const provider = new DummyProvider();
    const [a, b, c] = [
      await provider.startInstance(params()),
      await provider.startInstance(params()),
      await provider.startInstance(params()),
    ];
    provider.loseInstance(c.id);
    await provider.stopInstances([a.id, c.id]);
    expect((await provider.listInstances()).map((instance) => instance.id)).toEqual([b.id]);
  });

  it("is idempotent: unknown and already stopped ids are no-ops", async () => {
    const provider = new DummyProvider();
    const stopped: string[] = [];
    provider.onStopped(({ instance }) => stopped.push(instance.id));
    const a = await provider.startInstance(params());
    const b = await provider.startInstance(params());
    await provider.stopInstances([a.id]);
    await provider.stopInstances([a.id, a.id, "dummy-42", "nonsense"]);
    expect(stopped).toEqual([a.id]);
    expect((await provider.listInstances()).map((instance) => instance.id)).toEqual([b.id]);
  });
});

describe("hooks", () => {
  it("onStarted fires with the instance and its userData", async () => {
    const provider = new DummyProvider();
    const started: InstanceStarted[] = [];
    provider.onStarted((event) => started.push(event));
    const instance = await provider.startInstance(params({}, { userData: "agent-secret" }));
    expect(started).toEqual([{ instance, userData: "agent-secret" }]);
  });

  it("userData appears nowhere but the start event", async () => {
    const provider = new DummyProvider();
    const instance = await provider.startInstance(params({}, { userData: "agent-secret" }));
    expect(JSON.stringify([instance, await provider.listInstances(), provider.describe()])).not.toContain("agent-secret");
  });

  it("onStopped fires with the stopped instance", async () => {
    const provider = new DummyProvider();
    const stopped: InstanceChanged[] = [];
    provider.onStopped((event) => stopped.push(event));
    const instance = await provider.startInstance(params());
    await provider.stopInstances([instance.id]);
    expect(stopped).toEqual([{ instance: { ...instance, status: "stopped" } }]);
  });

  it("a failed start fires nothing", async () => {
    const provider = new DummyProvider();
    const started: InstanceStarted[] = [];
    provider.onStarted((event) => started.push(event));
    provider.failNextStarts(1);
    await refused(provider, {});
    await refused(provider, { mem: 512 * G });
    expect(started).toEqual([]);
  });

  it("a throwing hook fails neither the start nor the other hooks; its error is rethrown on its own", async () => {
    const rethrown: (() => void)[] = [];
    vi.stubGlobal("queueMicrotask", (task: () => void) => rethrown.push(task));
    try {
      const provider = new DummyProvider();
      const started: string[] = [];
      provider.onStarted(() => {
        throw new Error("agent failed to start");
      });
      provider.onStarted(({ instance }) => started.push(instance.id));
      const instance = await provider.startInstance(params());
      expect(started).toEqual([instance.id]);
      expect(rethrown).toHaveLength(1);
      expect(() => rethrown[0]!()).toThrow("agent failed to start");
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("the returned function unsubscribes", async () => {
    const provider = new DummyProvider();
    const started: InstanceStarted[] = [];
    const unsubscribe = provider.onStarted((event) => started.push(event));
    await provider.startInstance(params());
    unsubscribe();
    await provider.startInstance(params());
    expect(started.map((event) => event.instance.id)).toEqual(["dummy-0"]);
  });
});

describe("describe", () => {
  it("shows the catalog, the instances and the armed faults", async () => {
    const provider = new DummyProvider();
    const instance = await provider.startInstance(params());
    provider.failNextStarts(3);
    provider.refuseConstraints("  mem=64G   cores=8 ");
    const description = provider.describe();
    expect(description).toMatchObject({ name: "dummy", zones: ["zone-a", "zone-b", "zone-c"], instances: [instance] });
    expect(description.instanceTypes).toHaveLength(9);
    expect(description).toMatchObject({ failingStarts: 3, refusing: "mem=64G cores=8" });
  });
});
