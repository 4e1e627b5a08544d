// A model's counters and the tables' creation order (src/model/sequences.ts), asked for many at once: the units an
// addUnit call starts together, and their new machines.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../src/db/connect.js";
import { addModel, addUnit, deploy } from "../src/model/index.js";
import { creationPlaces, nextSequence, nextSequences } from "../src/model/sequences.js";
import { transact } from "../src/model/write/index.js";
import { openTestStore, uniqueName } from "./support/store.js";

let store: Store;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(() => store.close());

describe("counters and places asked for together", () => {
  it("each counter's numbers are handed out in the order asked, from where the counter stood", async () => {
    const { id } = await addModel(store.db, { name: uniqueName("seq") });
    await transact(store.db, (tx) => nextSequence(tx, id, "a")); // a stands at 1
    expect(await transact(store.db, (tx) => nextSequences(tx, id, ["a", "b", "a", "a"]))).toEqual([1, 0, 2, 3]);
    expect(await transact(store.db, (tx) => nextSequence(tx, id, "a"))).toBe(4);
  });

  it("each table's places ascend in the order asked, all at the transaction's time", async () => {
    const places = await transact(store.db, (tx) => creationPlaces(tx, ["units", "machines", "units", "units"]));
    const units = [places[0]!, places[2]!, places[3]!].map((p) => p.seq);
    expect(units).toEqual([...units].sort((x, y) => x - y));
    expect(new Set(units).size).toBe(3);
    expect(new Set(places.map((p) => p.now.getTime())).size).toBe(1);
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
