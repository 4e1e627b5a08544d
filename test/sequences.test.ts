// A model's counters and the tables' serials (src/model/sequences.ts): what one writer asks for in one turn goes as one
// statement of each kind, and each ask still gets its own numbers, in the order asked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../src/db/connect.js";
import { addModel, addUnit, deploy } from "../src/model/index.js";
import { nextSequence, nextSerials } from "../src/model/sequences.js";
import { transact } from "../src/model/write/index.js";
import { openTestStore, uniqueName } from "./support/store.js";

let store: Store;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(() => store.close());

describe("counters and serials asked for together", () => {
  it("hand each counter's numbers out in the order asked, from where the counter stood", async () => {
    const { id } = await addModel(store.db, { name: uniqueName("seq") });
    await transact(store.db, (tx) => nextSequence(tx, id, "a")); // a stands at 1
    const numbers = await transact(store.db, (tx) =>
      Promise.all([nextSequence(tx, id, "a"), nextSequence(tx, id, "b"), nextSequence(tx, id, "a"), nextSequence(tx, id, "a")]),
    );
    expect(numbers).toEqual([1, 0, 2, 3]);
    expect(await transact(store.db, (tx) => nextSequence(tx, id, "a"))).toBe(4);
  });

  it("hand each ask its own serials: ascending within a table, in the order asked, with the transaction's time", async () => {
    const [units, machines, more] = await transact(store.db, (tx) =>
      Promise.all([nextSerials(tx, "units", "seq", 2), nextSerials(tx, "machines", "seq", 1), nextSerials(tx, "units", "seq", 1)]),
    );
    expect(units).toHaveLength(2);
    expect(machines).toHaveLength(1);
    const unitValues = [...units!, ...more!].map((s) => s.value);
    expect(unitValues).toEqual([...unitValues].sort((x, y) => x - y));
    expect(new Set(unitValues).size).toBe(3);
    expect(new Set([...units!, ...machines!, ...more!].map((s) => s.now.getTime())).size).toBe(1);
  });

  it("addUnit numbers the units it starts together in order, on machines numbered in order", async () => {
    const model = uniqueName("seq");
    await addModel(store.db, { name: model });
    await deploy(store.db, { model, charm: "memcached", application: "cache", numUnits: 0 });
    const added = await addUnit(store.db, { model, application: "cache", count: 10 }); // the most a call takes on PGlite
    expect(added.map((u) => u.name)).toEqual(Array.from({ length: 10 }, (_, i) => `cache/${i}`));
    const first = Number(added[0]!.machineId);
    expect(added.map((u) => u.machineId)).toEqual(Array.from({ length: 10 }, (_, i) => String(first + i)));
    expect(added.map((u) => u.seq)).toEqual([...added.map((u) => u.seq)].sort((x, y) => x - y));
  });
});
