// A token's actor is remembered for a moment (src/model/authentications.ts), and forgotten
// by this process as soon as it commits what ends the token: a revocation, new credentials
// for the same agent, the agent's entity going Dead. What another process (or a hand in
// the database) changes is seen within AUTHENTICATION_TTL_MS.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { unitLifeSet } from "../src/changes/change.js";
import { AUTHENTICATION_TTL_MS, committed, remember, remembered } from "../src/model/authentications.js";
import { useApi } from "./support/api.js";
import { deploy } from "./support/fixtures.js";
import { scaled } from "./support/time-scale.js";

const api = useApi();

const ISSUE_UNIT = `mutation ($input: AgentUnitInput!) { issueUnitCredentials(input: $input) { token } }`;
const ISSUE_TOKEN = `mutation ($input: IssueTokenInput!) { issueToken(input: $input) { id token } }`;
const READ = `query ($model: String!) { model(name: $model) { revision } }`;

/** The code a read with `token` is refused with, or null when it is answered. */
const refusal = async (token: string, model: string) => {
  const result = await api.requestAs(token, READ, { model });
  return result.errors?.[0]?.extensions?.code ?? null;
};

async function unitWithAgent() {
  const model = await api.newModel();
  await deploy(api, model, { charm: "wordpress", numUnits: 1 });
  const { token } = (await api.ok(ISSUE_UNIT, { input: { model, unit: "wordpress/0" } })).issueUnitCredentials;
  expect(await refusal(token, model)).toBeNull(); // used, so remembered
  return { model, token };
}

describe("remembered authentications", () => {
  it("a person's token, used and then revoked, is refused at once", async () => {
    const model = await api.newModel();
    const { id, token } = (await api.ok(ISSUE_TOKEN, { input: { role: "OPERATOR", description: "cache spec" } })).issueToken;
    expect(await refusal(token, model)).toBeNull();
    await api.ok(`mutation ($id: Int!) { revokeToken(id: $id) }`, { id });
    expect(await refusal(token, model)).toBe("UNAUTHENTICATED");
  });

  it("a unit agent's token, used and then its unit set Dead, is refused at once", async () => {
    const { model, token } = await unitWithAgent();
    await api.ok(`mutation ($input: UnitTargetInput!) { setUnitDead(input: $input) { life } }`, { input: { model, unit: "wordpress/0" } });
    expect(await refusal(token, model)).toBe("UNAUTHENTICATED");
  });

  it("an agent's token replaced by new credentials is refused at once; the new one works", async () => {
    const { model, token } = await unitWithAgent();
    const fresh = (await api.ok(ISSUE_UNIT, { input: { model, unit: "wordpress/0" } })).issueUnitCredentials.token;
    expect(await refusal(token, model)).toBe("UNAUTHENTICATED");
    expect(await refusal(fresh, model)).toBeNull();
  });

  it(`credentials removed behind the process's back (another server, by hand) stop working within ${AUTHENTICATION_TTL_MS} ms`, async () => {
    const { model, token } = await unitWithAgent();
    await api.store.db.execute(
      sql`delete from credentials where kind = 'unit' and entity = 'wordpress/0' and model_id = (select id from models where name = ${model})`,
    );
    // The deadline allows for a loaded machine; the remembered answer itself ends after the TTL.
    await expect
      .poll(() => refusal(token, model), { timeout: scaled(AUTHENTICATION_TTL_MS + 5_000), interval: 50 })
      .toBe("UNAUTHENTICATED");
  });

  it("a unit going Dead forgets only its own agent's tokens: with thousands of agents, units die all the time", async () => {
    const db = api.store.db;
    const agent = (unit: string) => ({ kind: "unit" as const, modelId: "m-1", model: "m", unit });
    remember(db, "hash-a", agent("wordpress/0"), null);
    remember(db, "hash-b", agent("wordpress/1"), null);
    committed(db, [{ modelId: "m-1", change: unitLifeSet({ name: "wordpress/0", application: "wordpress" }, "dead") }]);
    expect(remembered(db, "hash-a")).toBeUndefined();
    expect(remembered(db, "hash-b")).toEqual(agent("wordpress/1"));
  });
});
