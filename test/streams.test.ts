// Specification of the `changes` stream, as a graphql-ws client meets it: a snapshot at
// a revision, then every change after it in order; resume with `since`; bookmarks when
// idle; RESYNC_REQUIRED once the log no longer holds what a client would resume from.
import { and, asc, eq, gt } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { compactModel } from "../src/changes/retention.js";
import { changes } from "../src/db/schema.js";
import { adminHeaders } from "./support/store.js";
import { CHANGES, subscribe, useLiveServer } from "./support/streams.js";
import { scaled } from "./support/time-scale.js";

const live = useLiveServer({ bookmarkIntervalMs: 300 });

const DEPLOY = `mutation ($model: String!, $charm: String!, $n: Int) { deploy(input: { model: $model, charm: $charm, numUnits: $n }) { name } }`;
const ADD_UNIT = `mutation ($model: String!, $app: String!) { addUnit(input: { model: $model, application: $app }) { name } }`;
const deploy = (model: string, charm: string, n = 1) => live.ok(DEPLOY, { model, charm, n });
const addUnit = (model: string, app: string) => live.ok(ADD_UNIT, { model, app });

/** The log as the table holds it: [revision, kind, entity] after `after`. */
async function logAfter(modelId: string, after = 0) {
  const rows = await live.store.db
    .select()
    .from(changes)
    .where(and(eq(changes.modelId, modelId), gt(changes.revision, after)))
    .orderBy(asc(changes.revision));
  return rows.map((r) => [String(r.revision), r.kind.toUpperCase(), r.entity]);
}

type StreamEventLike = { revision: string; kind: string | null; entity: string | null };
const triples = (events: { revision: string; kind: string | null; entity: string | null }[]) =>
  events.map((e) => [e.revision, e.kind, e.entity]);

describe("a fresh changes stream", () => {
  it("starts with the state of everything it covers at one revision R, then a bookmark at R", async () => {
    const model = await live.newModel();
    await deploy(model.name, "wordpress");
    const stream = subscribe(live.url, CHANGES, { model: model.name });
    await stream.synced();
    const states = stream.events.filter((e) => e.type === "STATE");
    const mark = stream.events.find((e) => e.type === "BOOKMARK")!;
    const { model: m } = await live.ok(`query ($m: String!) { model(name: $m) { revision } }`, { m: model.name });
    expect(mark.revision).toBe(m.revision);
    expect(states.every((e) => e.revision === mark.revision)).toBe(true);
    expect(states.map((e) => `${e.kind} ${e.entity}`).sort()).toEqual(
      [`MODEL ${model.name}`, "MACHINE 0", "MACHINE 1", "CHARM bundled:wordpress-0", "APPLICATION wordpress", "UNIT wordpress/0"].sort(),
    );
    expect(states.find((e) => e.entity === "wordpress/0")).toMatchObject({
      life: "ALIVE",
      unit: { applicationName: "wordpress", machineId: "1" },
    });
  });

  it("then sends every change after R, in revision order, with what changed", async () => {
    const model = await live.newModel();
    const stream = subscribe(live.url, CHANGES, { model: model.name });
    await stream.synced();
    const r = Number(stream.events.at(-1)!.revision);
    await deploy(model.name, "mysql");
    await addUnit(model.name, "mysql");
    const expected = await logAfter(model.id, r);
    await stream.until((s) => s.changes.length >= expected.length);
    expect(triples(stream.changes)).toEqual(expected);
    expect(stream.changes.find((e) => e.entity === "mysql/1")).toMatchObject({
      life: "ALIVE",
      removed: false,
      unit: { applicationName: "mysql" },
    });
  });

  it("refuses an unknown model with NOT_FOUND", async () => {
    const stream = subscribe(live.url, CHANGES, { model: "no-such-model" });
    await stream.until((s) => s.errors !== null);
    expect(stream.errors!.map((e) => e.extensions?.code)).toEqual(["NOT_FOUND"]);
  });
});

describe("filters", () => {
  it("kinds and entities narrow both the snapshot and the changes", async () => {
    const model = await live.newModel();
    await deploy(model.name, "wordpress");
    const stream = subscribe(live.url, CHANGES, { model: model.name, kinds: ["UNIT"], entities: ["wordpress/1"] });
    await stream.synced();
    expect(stream.events.filter((e) => e.type === "STATE")).toEqual([]);
    await addUnit(model.name, "wordpress");
    await addUnit(model.name, "wordpress");
    await stream.until((s) => s.changes.length >= 1);
    // The stream has seen later revisions than wordpress/1's; a bookmark may say so, but no other entity arrives.
    await deploy(model.name, "mysql");
    await stream.until((s) => s.events.some((e) => e.type === "BOOKMARK" && Number(e.revision) > Number(s.changes[0]!.revision)));
    expect(stream.changes.map((e) => `${e.kind} ${e.entity}`)).toEqual(["UNIT wordpress/1"]);
  });

  it("life keeps only entities in those lives", async () => {
    const model = await live.newModel();
    const stream = subscribe(live.url, CHANGES, { model: model.name, kinds: ["MACHINE"], life: ["DYING"] });
    await stream.synced();
    expect(stream.events.filter((e) => e.type === "STATE")).toEqual([]);
  });
});

describe("resuming with since", () => {
  it("replays exactly the changes after it: nothing missed, nothing twice", async () => {
    const model = await live.newModel();
    const first = subscribe(live.url, CHANGES, { model: model.name });
    await first.synced();
    await deploy(model.name, "wordpress");
    await first.until((s) => s.changes.some((e) => e.entity === "wordpress/0"));
    const last = first.events.at(-1)!.revision;
    await first.close(); // the socket drops
    await addUnit(model.name, "wordpress");
    await deploy(model.name, "mysql", 0);

    const resumed = subscribe(live.url, CHANGES, { model: model.name, since: last });
    const expected = await logAfter(model.id, Number(last));
    await resumed.until((s) => s.changes.length >= expected.length);
    expect(triples(resumed.changes)).toEqual(expected);
    expect(resumed.events.filter((e) => e.type === "STATE")).toEqual([]);
  });

  it("a client dropping its socket at random points while writes go on ends with exactly the table's changes", async () => {
    const model = await live.newModel();
    const fresh = subscribe(live.url, CHANGES, { model: model.name });
    await fresh.synced();
    const start = fresh.events.at(-1)!.revision;
    fresh.drop();

    let seed = 7; // a fixed seed: the same drop points every run
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const head = async () =>
      (await live.ok(`query ($m: String!) { model(name: $m) { revision } }`, { m: model.name })).model.revision as string;
    let finalHead: string | null = null;
    const writer = (async () => {
      for (let i = 0; i < 40; i++) await live.ok(`mutation ($m: String!) { addMachine(input: { model: $m }) { id } }`, { m: model.name });
      finalHead = await head();
    })();

    const seen: StreamEventLike[] = [];
    let since = start;
    for (let round = 0; since !== finalHead; round++) {
      expect(round, "rounds").toBeLessThan(100);
      const s = subscribe(live.url, CHANGES, { model: model.name, since });
      if (finalHead) await s.until((x) => x.changes.at(-1)?.revision === finalHead);
      else await Promise.race([s.until((x) => x.changes.length >= 1 + Math.floor(random() * 6)), writer]);
      seen.push(...s.changes); // what arrived before the drop is what the client processed
      if (s.changes.length) since = s.changes.at(-1)!.revision;
      s.drop();
    }
    expect(triples(seen)).toEqual(await logAfter(model.id, Number(start)));
  });

  it("a revision ahead of the model is refused", async () => {
    const model = await live.newModel();
    const stream = subscribe(live.url, CHANGES, { model: model.name, since: "999999" });
    await stream.until((s) => s.errors !== null);
    expect(stream.errors!.map((e) => e.extensions?.code)).toEqual(["INVALID_ARGUMENT"]);
  });

  it("a revision the log no longer holds fails with RESYNC_REQUIRED", async () => {
    const model = await live.newModel();
    await deploy(model.name, "wordpress");
    await compactModel(live.store.db, model.id, { keepRevisions: 2, minAgeMs: 0, batch: 1000 });
    const stream = subscribe(live.url, CHANGES, { model: model.name, since: "1" });
    await stream.until((s) => s.errors !== null);
    expect(stream.errors![0]).toMatchObject({ extensions: { code: "RESYNC_REQUIRED" } });
    expect(stream.errors![0].message).toMatch(/subscribe again without "since"/);
  });
});

describe("idle streams", () => {
  it("send bookmarks carrying the current revision", async () => {
    const model = await live.newModel();
    const stream = subscribe(live.url, CHANGES, { model: model.name, kinds: ["RELATION"] });
    await stream.synced();
    await deploy(model.name, "memcached"); // no relation: nothing the stream covers
    const { model: m } = await live.ok(`query ($m: String!) { model(name: $m) { revision } }`, { m: model.name });
    await stream.until((s) => s.events.some((e) => e.type === "BOOKMARK" && e.revision === m.revision));
    expect(stream.changes).toEqual([]);
  });
});

describe("concurrent writers", () => {
  it("a subscriber sees strictly increasing revisions, identical to the table's", async () => {
    const model = await live.newModel();
    const stream = subscribe(live.url, CHANGES, { model: model.name });
    await stream.synced();
    const r = Number(stream.events.at(-1)!.revision);
    const SET = `mutation ($model: String!, $c: String!) { setConstraints(input: { model: $model, constraints: $c }) { text } }`;
    // Four writers, each committing its own transactions as fast as it can; on PostgreSQL they race for the revision.
    const writer = async (w: number) => {
      for (let i = 0; i < 8; i++) {
        if (i % 4 === 0) await live.ok(`mutation ($m: String!) { addMachine(input: { model: $m }) { id } }`, { m: model.name });
        else await live.ok(SET, { model: model.name, c: `cores=${w * 100 + i}` });
      }
    };
    await Promise.all([0, 1, 2, 3].map(writer));
    const expected = await logAfter(model.id, r);
    await stream.until((s) => s.changes.length >= expected.length);
    const revisions = stream.changes.map((e) => Number(e.revision));
    expect(revisions.every((rev, i) => i === 0 || rev > revisions[i - 1]!)).toBe(true);
    expect(triples(stream.changes)).toEqual(expected);
  });
});

describe("over SSE", () => {
  it("serves the same stream to an EventSource-style client", async () => {
    const model = await live.newModel();
    const controller = new AbortController();
    const response = await fetch(live.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", ...adminHeaders },
      body: JSON.stringify({ query: CHANGES, variables: { model: model.name, kinds: ["MACHINE"] } }),
      signal: controller.signal,
    });
    expect(response.headers.get("content-type")).toMatch(/text\/event-stream/);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const events: any[] = [];
    let buffer = "";
    const deadline = Date.now() + scaled(15_000);
    try {
      while (!events.some((e) => e.type === "CHANGE") && Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const data = buffer
            .slice(0, end)
            .split("\n")
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5))
            .join("");
          buffer = buffer.slice(end + 2);
          if (data.trim()) events.push(JSON.parse(data).data?.changes);
          if (events.at(-1)?.type === "BOOKMARK" && events.filter((e) => e.type === "CHANGE").length === 0)
            await live.ok(`mutation ($m: String!) { addMachine(input: { model: $m }) { id } }`, { m: model.name });
        }
      }
    } finally {
      controller.abort();
    }
    expect(events.map((e) => `${e.type} ${e.entity ?? ""}`)).toEqual(["STATE 0", "BOOKMARK ", "CHANGE 1"]);
  });
});
