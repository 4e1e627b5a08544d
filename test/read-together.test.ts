// Reads by key that arrive together go as one statement (src/db/read-together.ts): every
// request's token and every stream's model are looked up that way.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, Store } from "../src/db/connect.js";
import { readTogether } from "../src/db/read-together.js";
import {
  addModel,
  addUnit,
  authenticate,
  deploy,
  deploysUnit,
  issueMachineCredentials,
  issueUnitCredentials,
  modelNamed,
} from "../src/model/index.js";
import { loadModelsByName } from "../src/model/read.js";
import { openTestStore, uniqueName } from "./support/store.js";

let store: Store;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(() => store.close());

/** Models by name, read together, with the keys of each read it made. */
function recordedReads() {
  const reads: (readonly string[])[] = [];
  const byName = readTogether((db: Database, names: readonly string[]) => {
    reads.push(names);
    return loadModelsByName(db, names);
  });
  return { reads, byName };
}

describe("reads together", () => {
  it("the keys asked for in one turn are read in one statement, each once, and each caller gets its own answer", async () => {
    const [a, b] = [uniqueName(), uniqueName()];
    await addModel(store.db, { name: a });
    await addModel(store.db, { name: b });
    const { reads, byName } = recordedReads();
    const answers = await Promise.all([a, b, a, "no-such-model"].map((name) => byName(store.db, name)));
    expect(reads).toEqual([[a, b, "no-such-model"]]);
    expect(answers.map((m) => m?.name ?? null)).toEqual([a, b, a, null]);
  });

  it("a key asked for after its read ran is read again: an answer is never kept", async () => {
    const name = uniqueName();
    const { reads, byName } = recordedReads();
    expect(await byName(store.db, name)).toBeNull();
    await addModel(store.db, { name });
    expect((await byName(store.db, name))?.name).toBe(name);
    expect(reads).toEqual([[name], [name]]);
  });

  it("a read that fails fails each of its callers with its error", async () => {
    const byName = readTogether(async () => {
      throw new Error("the database went away");
    });
    const outcomes = await Promise.allSettled(["a", "b"].map((name) => byName(store.db, name)));
    expect(outcomes.map((o) => o.status === "rejected" && o.reason.message)).toEqual(["the database went away", "the database went away"]);
  });

  it("tokens of requests that arrive together are looked up together: each finds its own agent, an unknown one nobody", async () => {
    const model = uniqueName();
    await addModel(store.db, { name: model });
    await deploy(store.db, { model, charm: "wordpress", numUnits: 2 });
    const tokens = await Promise.all(
      ["wordpress/0", "wordpress/1"].map(async (unit) => (await issueUnitCredentials(store.db, { model, unit })).token),
    );
    const actors = await Promise.all([...tokens, "llt_unknown"].map((token) => authenticate(store.db, token)));
    expect(actors.map((a) => (a?.kind === "unit" ? a.unit : null))).toEqual(["wordpress/0", "wordpress/1", null]);
  });

  it("a machine agent's checks on the units it deploys, asked together, each answer for its own unit", async () => {
    const model = uniqueName();
    await addModel(store.db, { name: model });
    await deploy(store.db, { model, charm: "wordpress", numUnits: 0 });
    const [ours, theirs] = await addUnit(store.db, { model, application: "wordpress", count: 2 });
    const { token } = await issueMachineCredentials(store.db, { model, machine: ours!.machineId! });
    const agent = (await authenticate(store.db, token))!;
    const answers = await Promise.all(
      [ours!.name, theirs!.name, "wordpress/9"].map((unit) => deploysUnit(store.db, agent, { model, unit })),
    );
    expect(answers).toEqual([true, false, false]);
  });

  it("streams' models asked for together: each name gets its own model, or NOT_FOUND", async () => {
    const name = uniqueName();
    await addModel(store.db, { name });
    const outcomes = await Promise.allSettled([modelNamed(store.db, name), modelNamed(store.db, "no-such-model")]);
    expect(outcomes[0]).toMatchObject({ status: "fulfilled", value: { name } });
    expect(outcomes[1]).toMatchObject({ status: "rejected", reason: { code: "NOT_FOUND" } });
  });
});
