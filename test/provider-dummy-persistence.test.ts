// Specification of the dummy cloud's file (src/provider/dummy-state.ts): a
// cloud made on the file of an earlier one is that cloud, instances, userData,
// counters and armed faults included; it boots its running instances again
// through onStarted; every change is appended to a journal beside the file in
// the same turn, and the file (a snapshot) is replaced atomically only once the
// journal outgrows the state; a crash at any moment leaves a state that reads
// back; only their owner may read them (they hold agents' credentials); files
// it cannot read are refused, never overwritten.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DummyProvider, type InstanceStarted } from "../src/provider/dummy.js";
import { DefaultFailureMessage, DummyStateError, readDummyState } from "../src/provider/dummy-state.js";
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

/** The state a restarted cloud would see: the snapshot with the journal replayed. */
const stored = (file: string) => readDummyState(file)!;
const storedIds = (file: string) => stored(file).instances.map((s) => s.instance.id);
const journal = (file: string) => readFileSync(`${file}.journal`, "utf8");
const journalLines = (file: string) => journal(file).split("\n").filter(Boolean);
/** The snapshot as it is on disk, and which file it is (a rename makes a new one). */
const snapshot = (file: string) => ({ ino: statSync(file).ino, text: readFileSync(file, "utf8") });
/** Changes that touch no instance, to fill the journal. */
const fill = (provider: DummyProvider, count: number) => {
  for (let i = 1; i <= count; i++) provider.failNextStarts(i);
};

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
    expect(existsSync(file)).toBe(true);
    expect(stored(file).instances).toHaveLength(1);
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

describe("the files", () => {
  it("every change is appended to the journal in the same turn; the snapshot is not rewritten for it", async () => {
    const file = freshFile();
    const provider = new DummyProvider({ stateFile: file });
    const first = await provider.startInstance(params()); // a cloud's first change writes the snapshot
    const before = snapshot(file);
    const instance = await provider.startInstance(params({ userData: "agent-a" }));
    expect(stored(file).instances).toEqual([{ instance: first }, { instance, userData: "agent-a" }]);
    provider.loseInstance(instance.id);
    expect(stored(file).instances[1]!.instance.status).toBe("lost");
    provider.failNextStarts(1);
    expect(stored(file).failingStarts).toBe(1);
    await expect(provider.startInstance(params())).rejects.toThrow();
    expect(stored(file).failingStarts).toBe(0);
    provider.refuseConstraints("cores=8");
    expect(stored(file).refusing).toBe("cores=8");
    await provider.stopInstances([instance.id, first.id]);
    expect(stored(file).instances).toEqual([]);
    expect(journalLines(file)).toHaveLength(7); // started, lost, faults ×3, and both stops
    expect(snapshot(file)).toEqual(before);
  });

  it("once the journal outgrows the state, the snapshot is replaced through a temporary file renamed over it and the journal emptied", async () => {
    const file = freshFile();
    const provider = new DummyProvider({ stateFile: file });
    const instance = await provider.startInstance(params({ userData: "agent-a" }));
    const before = snapshot(file);
    fill(provider, 256); // as many lines as a small cloud's journal holds
    expect(journalLines(file)).toHaveLength(256);
    expect(snapshot(file)).toEqual(before);
    provider.refuseConstraints("mem=64G");
    const after = snapshot(file);
    expect(after.ino).not.toBe(before.ino); // a new file, not the old one written over in place
    expect(JSON.parse(after.text).generation).toBe(JSON.parse(before.text).generation + 1);
    expect(after.text).not.toContain("\n "); // compact: it is rewritten only now and then, but whole
    expect(journal(file)).toBe("");
    expect(readdirSync(join(file, "..")).sort()).toEqual(["cloud.json", "cloud.json.journal"]);
    expect(stored(file)).toEqual({
      nextNumber: 1,
      lastZone: 0,
      failingStarts: 256,
      failureMessage: DefaultFailureMessage,
      refusing: "mem=64G",
      instances: [{ instance, userData: "agent-a" }],
    });
    expect(reopen(file).provider.describe()).toEqual(provider.describe());
  });

  it("let the journal grow to twice the live instances before replacing the snapshot", async () => {
    const file = freshFile();
    const provider = new DummyProvider({ stateFile: file });
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) ids.push((await provider.startInstance(params({ userData: `agent-${i}` }))).id);
    expect(journalLines(file)).toHaveLength(299); // past 256, but 2 × 300 instances
    await provider.stopInstances(ids);
    expect(journal(file)).toBe("");
    expect(stored(file).instances).toEqual([]);
    expect(stored(file).nextNumber).toBe(300);
  });

  it("ignore a torn last line (a crash in the middle of an append), and the next change does not glue onto it", async () => {
    const file = freshFile();
    const provider = new DummyProvider({ stateFile: file });
    const a = await provider.startInstance(params());
    const b = await provider.startInstance(params());
    appendFileSync(`${file}.journal`, journalLines(file)[0]!.slice(0, 20));
    expect(storedIds(file)).toEqual([a.id, b.id]);
    const c = await reopen(file).provider.startInstance(params());
    expect(storedIds(file)).toEqual([a.id, b.id, c.id]);
    expect(await reopen(file).provider.listInstances()).toEqual([a, b, c]);
  });

  it("do not replay lines of an older generation than the snapshot's (a crash between its rename and the journal's emptying)", async () => {
    const file = freshFile();
    const provider = new DummyProvider({ stateFile: file });
    const a = await provider.startInstance(params());
    const b = await provider.startInstance(params());
    fill(provider, 255);
    const stale = journal(file); // b started, and the faults: all in the next snapshot
    await provider.stopInstances([b.id]); // one line too many: the snapshot is replaced, without b
    expect(journal(file)).toBe("");
    writeFileSync(`${file}.journal`, stale); // as if the crash came before the journal was emptied
    expect(storedIds(file)).toEqual([a.id]);
    expect(stored(file).failingStarts).toBe(255);
    const reopened = reopen(file).provider;
    expect((await reopened.listInstances()).map((i) => i.id)).toEqual([a.id]);
    reopened.failNextStarts(0);
    const c = await reopened.startInstance(params()); // appended after the stale lines
    expect(c.id).toBe("dummy-2");
    expect(storedIds(file)).toEqual([a.id, c.id]);
  });

  it("read a snapshot written before the journal (no generation) as generation 0", async () => {
    const file = freshFile();
    const instance = await new DummyProvider().startInstance(params()); // a cloud from before, in memory
    mkdirSync(join(file, ".."), { recursive: true });
    const state = { nextNumber: 1, lastZone: 0, failingStarts: 0, failureMessage: "full", refusing: null, instances: [{ instance }] };
    writeFileSync(file, JSON.stringify({ version: 1, ...state }, null, 2));
    const provider = new DummyProvider({ stateFile: file });
    const b = await provider.startInstance(params());
    expect(JSON.parse(journalLines(file)[0]!).generation).toBe(0);
    expect(storedIds(file)).toEqual([instance.id, b.id]);
  });

  it("are readable by their owner only: they hold the machine agents' credentials", async () => {
    const file = freshFile();
    const provider = new DummyProvider({ stateFile: file });
    await provider.startInstance(params({ userData: "agent-secret" }));
    await provider.startInstance(params({ userData: "agent-secret" }));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(`${file}.journal`).mode & 0o777).toBe(0o600);
    // A journal the append creates, beside a snapshot from before the journal.
    const legacy = freshFile();
    mkdirSync(join(legacy, ".."), { recursive: true });
    writeFileSync(legacy, JSON.stringify({ version: 1, ...stored(file) }), { mode: 0o600 });
    await new DummyProvider({ stateFile: legacy }).startInstance(params({ userData: "agent-secret" }));
    expect(statSync(`${legacy}.journal`).mode & 0o777).toBe(0o600);
  });

  it("are no longer written once the cloud is closed (another process's cloud owns them now)", async () => {
    const file = freshFile();
    const provider = new DummyProvider({ stateFile: file });
    await provider.startInstance(params());
    await provider.startInstance(params());
    const before = [snapshot(file), journal(file)];
    provider.close();
    await provider.startInstance(params());
    fill(provider, 300);
    expect([snapshot(file), journal(file)]).toEqual(before);
    expect(stored(file).instances).toHaveLength(2);
  });

  it("a snapshot it cannot read as a cloud is refused, naming it; both files are left as they were", async () => {
    const cases = ["{ not json", JSON.stringify({ version: 99 }), JSON.stringify({ version: 1, nextNumber: "x" })];
    const reasons = [/is not JSON/, /has version 99, not 1/, /missing fields or has fields of the wrong type/];
    for (const [i, text] of cases.entries()) {
      const file = freshFile();
      const provider = new DummyProvider({ stateFile: file });
      await provider.startInstance(params());
      await provider.startInstance(params());
      writeFileSync(file, text);
      const lines = journal(file);
      const made = () => new DummyProvider({ stateFile: file });
      expect(made).toThrow(DummyStateError);
      expect(made).toThrow(`the dummy cloud's file ${file} `);
      expect(made).toThrow(reasons[i]!);
      expect(made).toThrow(/fix it, or delete it and cloud\.json\.journal beside it to start with an empty cloud$/);
      expect(readFileSync(file, "utf8")).toBe(text);
      expect(journal(file)).toBe(lines);
    }
  });

  it("a journal with a line it cannot read, other than a torn last one, is refused, naming it; both files are left as they were", async () => {
    const cases: [(lines: string[]) => string, RegExp][] = [
      [([a, b]) => `${a}\n{ not json\n${b}\n`, /has a line 2 that is not JSON/],
      // A whole line: an append is torn before its newline, never after.
      [([a, b]) => `${a}\n${b}\n{ not json\n`, /has a line 3 that is not JSON/],
      [
        ([a, b]) => `${a}\n${JSON.stringify({ generation: 1, change: "rebooted", id: "dummy-0" })}\n${b}\n`,
        /has a line 2 that is not a change the cloud knows/,
      ],
      [
        ([a, b]) => `${a}\n${JSON.stringify({ generation: 1, change: "stopped" })}\n${b}\n`,
        /has a line 2 that is not a change the cloud knows/,
      ],
      // Newer than the snapshot: the snapshot is not the one these changes were made to.
      [
        ([a, b]) => `${a}\n${b}\n${JSON.stringify({ ...JSON.parse(b!), generation: 7 })}\n`,
        /has changes of generation 7, but cloud\.json is of generation 1/,
      ],
    ];
    for (const [garble, reason] of cases) {
      const file = freshFile();
      const provider = new DummyProvider({ stateFile: file });
      for (let n = 0; n < 3; n++) await provider.startInstance(params());
      writeFileSync(`${file}.journal`, garble(journalLines(file)));
      const before = [snapshot(file), journal(file)];
      const made = () => new DummyProvider({ stateFile: file });
      expect(made).toThrow(DummyStateError);
      expect(made).toThrow(`the dummy cloud's file ${file}.journal `);
      expect(made).toThrow(reason);
      expect(made).toThrow(/fix it, or delete it and cloud\.json beside it to start with an empty cloud$/);
      expect([snapshot(file), journal(file)]).toEqual(before);
    }
  });
});
