// The snapshot limit bounds `changes`, which its client can narrow (docs/decisions.md, "The bound is for
// `changes`"); an agent's focused stream holds all it covers, as Juju's watchers send it whole: the one unit of an
// application related to thousands sees every member.
import { expect, it } from "vitest";
import { subscribe, useLiveServer } from "./support/streams.js";

const LIMIT = 3;
const live = useLiveServer({ maxSnapshot: LIMIT });

const DEPLOY = `mutation ($model: String!, $charm: String!, $n: Int) { deploy(input: { model: $model, charm: $charm, numUnits: $n }) { name } }`;
const INTEGRATE = `mutation ($model: String!) { integrate(input: { model: $model, endpoints: ["wordpress", "mysql"] }) { id } }`;
const ENTER = `mutation ($model: String!, $relation: Int!, $unit: String!) { enterScope(input: { model: $model, relation: $relation, unit: $unit, privateAddress: "10.0.0.1" }) { member { role } } }`;

it("a unit agent's stream holds every member it sees, past the limit that refuses a `changes` stream as large", async () => {
  const { name: model } = await live.newModel();
  await live.ok(DEPLOY, { model, charm: "wordpress", n: 3 });
  await live.ok(DEPLOY, { model, charm: "mysql", n: 1 });
  const relation = (await live.ok(INTEGRATE, { model })).integrate.id as number;
  for (const unit of ["wordpress/0", "wordpress/1", "wordpress/2"]) await live.ok(ENTER, { model, relation, unit });

  const agents = subscribe(live.url, `subscription ($m: String!) { unitAgent(model: $m, unit: "mysql/0") { type kind entity } }`, {
    m: model,
  });
  await agents.synced();
  const members = agents.events.filter((e) => e.type === "STATE" && (e.kind === "SCOPE" || e.kind === "SETTINGS"));
  expect(members.length).toBe(6); // three wordpress units in scope, and their settings
  expect(agents.errors).toBeNull();

  const everything = subscribe(live.url, `subscription ($m: String!) { changes(model: $m, kinds: [SCOPE, SETTINGS]) { type entity } }`, {
    m: model,
  });
  await everything.until((s) => s.errors !== null);
  expect(everything.errors!.map((e) => e.extensions?.code)).toEqual(["INVALID_ARGUMENT"]);
  await agents.close();
});
