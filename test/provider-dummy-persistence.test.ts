// Specification of the dummy cloud's file (src/provider/dummy-state.ts): a
// cloud made on the file of an earlier one is that cloud, instances, userData,
// counters and armed faults included; it boots its running instances again
// through onStarted; the file is replaced atomically after every change and
// only its owner may read it (it holds agents' credentials); a file it cannot
// read is refused, never overwritten.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DummyProvider, type InstanceStarted } from "../src/provider/dummy.js";
import { DummyStateError } from "../src/provider/dummy-state.js";
import type { StartInstanceParams } from "../src/provider/provider.js";

const root = mkdtempSync(join(tmpdir(), "lifeline-cloud-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let files = 0;
/** A path in a directory of its own that does not exist yet. */
const freshFile = () => join(root, `cloud-${files++}`, "cloud.json");

let machines = 0;
const params = (extra: Partial<StartInstanceParams> = {}): StartInstanceParams => ({
  model: "m",
  machineId: String(machines++),
  series: "jammy",
  constraints: {},
  ...extra,
});

const onDisk = (file: string) => JSON.parse(readFileSync(file, "utf8"));

/** The cloud a restarted process makes on the same file, with what its onStarted listeners saw on boot. */
function reopen(file: string) {
  const provider = new DummyProvider({ stateFile: file });
  const booted: InstanceStarted[] = [];
  provider.onStarted((event) => booted.push(event));
  return { provider, booted };
}

describe("without a state file", () => {
  it("the cloud lives in memory only, as before", async () => {
    const provider = new DummyProvider();
    await provider.startInstance(params());
    expect(new DummyProvider().describe().instances).toEqual([]);
  });
});

describe("a cloud made on an earlier cloud's file", () => {
  it("has its instances, running and lost, with their hardware, addresses and models", async () => {
    const file = freshFile();
    const first = new DummyProvider({ stateFile: file });
    await first.startInstance(params({ model: "a", constraints: { mem: 8192 } }));
    const lost = await first.startInstance(params({ model: "b" }));
    first.loseInstance(lost.id);
    expect(await reopen(file).provider.listInstances()).toEqual(await first.listInstances());
  });

  it("never reuses an id or an address, and carries on its zone round-robin", async () => {
    const file = freshFile();
    const first = new DummyProvider({ stateFile: file });
    const a = await first.startInstance(params());
    const b = await first.startInstance(params());
    await first.stopInstances([a.id, b.id]);
    const c = await reopen(file).provider.startInstance(params());
    expect(c.id).toBe("dummy-2");
    expect(c.addresses).not.toContain(a.addresses[0]);
    expect(c.addresses).not.toContain(b.addresses[0]);
    expect([a.hardware.zone, b.hardware.zone, c.hardware.zone]).toEqual(["zone-a", "zone-b", "zone-c"]);
  });

  it("keeps the faults armed: the starts still to fail, their message, and the refusal rule", async () => {
    const file = freshFile();
    const first = new DummyProvider({ stateFile: file });
    first.failNextStarts(3, "zone-a is full");
    await expect(first.startInstance(params())).rejects.toThrow("zone-a is full");
    first.refuseConstraints("mem=64G");
    expect(reopen(file).provider.describe()).toMatchObject({ failingStarts: 2, failureMessage: "zone-a is full", refusing: "mem=64G" });
  });

  it("forgets stopped instances", async () => {
    const file = freshFile();
    const first = new DummyProvider({ stateFile: file });
    const a = await first.startInstance(params());
    const b = await first.startInstance(params());
    await first.stopInstances([a.id]);
    expect((await reopen(file).provider.listInstances()).map((i) => i.id)).toEqual([b.id]);
  });

  it("a missing file is an empty cloud, and the file (and its directory) appear with the first change", async () => {
    const file = freshFile();
    const provider = new DummyProvider({ stateFile: file });
    expect(provider.describe().instances).toEqual([]);
    await provider.startInstance(params());
    expect(onDisk(file).instances).toHaveLength(1);
  });
});

describe("bootInstances", () => {
  it("fires onStarted for each running instance with the userData it was started with", async () => {
    const file = freshFile();
    const first = new DummyProvider({ stateFile: file });
    const a = await first.startInstance(params({ userData: "agent-a" }));
    const b = await first.startInstance(params());
    const { provider, booted } = reopen(file);
    expect(booted).toEqual([]); // nothing boots until asked: the listeners must be registered first
    provider.bootInstances();
    expect(booted).toEqual([
      { instance: a, userData: "agent-a" },
      { instance: b, userData: undefined },
    ]);
  });

  it("leaves lost instances down", async () => {
    const file = freshFile();
    const first = new DummyProvider({ stateFile: file });
    const running = await first.startInstance(params({ userData: "agent-a" }));
    first.loseInstance((await first.startInstance(params({ userData: "agent-b" }))).id);
    const { provider, booted } = reopen(file);
    provider.bootInstances();
    expect(booted.map((event) => event.instance.id)).toEqual([running.id]);
  });

  it("keeps userData out of every listing, as before", async () => {
    const file = freshFile();
    await new DummyProvider({ stateFile: file }).startInstance(params({ userData: "agent-secret" }));
    const { provider } = reopen(file);
    expect(JSON.stringify([await provider.listInstances(), provider.describe()])).not.toContain("agent-secret");
  });
});

describe("the file", () => {
  it("is rewritten after every change, in the same turn", async () => {
    const file = freshFile();
    const provider = new DummyProvider({ stateFile: file });
    const instance = await provider.startInstance(params({ userData: "agent-a" }));
    expect(onDisk(file).instances).toEqual([{ instance, userData: "agent-a" }]);
    provider.loseInstance(instance.id);
    expect(onDisk(file).instances[0].instance.status).toBe("lost");
    provider.failNextStarts(1);
    expect(onDisk(file).failingStarts).toBe(1);
    await expect(provider.startInstance(params())).rejects.toThrow();
    expect(onDisk(file).failingStarts).toBe(0);
    provider.refuseConstraints("cores=8");
    expect(onDisk(file).refusing).toBe("cores=8");
    await provider.stopInstances([instance.id]);
    expect(onDisk(file).instances).toEqual([]);
  });

  it("is replaced whole through a temporary file renamed over it: nothing else is left in its directory", async () => {
    const file = freshFile();
    const provider = new DummyProvider({ stateFile: file });
    const before = await provider.startInstance(params());
    const inode = statSync(file).ino;
    await provider.startInstance(params());
    expect(statSync(file).ino).not.toBe(inode); // a new file, not the old one written over in place
    expect(readdirSync(join(file, ".."))).toEqual(["cloud.json"]);
    expect(onDisk(file).instances.map((s: any) => s.instance.id)).toEqual([before.id, "dummy-1"]);
  });

  it("is readable by its owner only: it holds the machine agents' credentials", async () => {
    const file = freshFile();
    await new DummyProvider({ stateFile: file }).startInstance(params({ userData: "agent-secret" }));
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("is no longer written once the cloud is closed (another process's cloud owns it now)", async () => {
    const file = freshFile();
    const provider = new DummyProvider({ stateFile: file });
    await provider.startInstance(params());
    provider.close();
    await provider.startInstance(params());
    expect(onDisk(file).instances).toHaveLength(1);
  });

  it("is refused, naming it, when it cannot be read as a cloud; it is left as it was", () => {
    const cases = ["{ not json", JSON.stringify({ version: 99 }), JSON.stringify({ version: 1, nextNumber: "x" })];
    const reasons = [/is not JSON/, /has version 99, not 1/, /missing fields or has fields of the wrong type/];
    for (const [i, text] of cases.entries()) {
      const file = freshFile();
      new DummyProvider({ stateFile: file }).failNextStarts(0); // makes the directory
      writeFileSync(file, text);
      const made = () => new DummyProvider({ stateFile: file });
      expect(made).toThrow(DummyStateError);
      expect(made).toThrow(`the dummy cloud's file ${file} `);
      expect(made).toThrow(reasons[i]!);
      expect(made).toThrow(/fix it, or delete it to start with an empty cloud$/);
      expect(readFileSync(file, "utf8")).toBe(text);
    }
  });
});
