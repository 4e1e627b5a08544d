// A unit agent's start-up comes with its credentials: the deployer's issueUnitCredentials reads, with the unit, what the
// agent starts from (its state document, the scopes it is in, whether it has reported yet, its charm's hooks), so a
// thousand agents starting do not each ask for it again. It is what the agent reads of itself (UnitAgentState), which
// an agent started without it still asks for.
import { describe, expect, it } from "vitest";
import { useApi } from "./support/api.js";
import { deploy, integrate } from "./support/fixtures.js";
import { agent, SET_AGENT_STATE } from "./support/hooks.js";
import { lifecycle } from "./support/lifecycle.js";

const api = useApi();

const ISSUE = `mutation ($input: AgentUnitInput!) { issueUnitCredentials(input: $input) {
  tag token startup { agentState relationsInScope allocating charmUrl hooks { name content } }
} }`;

/** What the agent reads of itself at start when nobody handed it over (schema/operations/unit-agent.graphql). */
const OWN_READ = `query ($model: String!, $unit: String!) { model(name: $model) { unit(name: $unit) {
  agentState relationsInScope { id } agentStatus { current } application { charm { url hooks { name content } } }
} } }`;

/** The agent's own read, in the start-up's terms. */
async function ownRead(model: string, unit: string) {
  const u = (await api.ok(OWN_READ, { model, unit })).model.unit;
  return {
    agentState: u.agentState,
    relationsInScope: u.relationsInScope.map((r: { id: number }) => r.id),
    allocating: u.agentStatus.current === "allocating",
    charmUrl: u.application.charm.url,
    hooks: u.application.charm.hooks,
  };
}

const issue = async (model: string, unit: string) => (await api.ok(ISSUE, { input: { model, unit } })).issueUnitCredentials;

describe("issueUnitCredentials' start-up", () => {
  it("a unit never run: no state document, no scope, allocating, its charm's hooks by name", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress" });
    const { startup } = await issue(model, "wordpress/0");
    expect(startup).toMatchObject({ agentState: null, relationsInScope: [], allocating: true });
    expect(startup.charmUrl).toMatch(/wordpress/);
    expect(startup.hooks.map((h: { name: string }) => h.name)).toContain("install");
    expect(startup.hooks.map((h: { name: string }) => h.name)).toEqual([...startup.hooks.map((h: { name: string }) => h.name)].sort());
    expect(startup).toEqual(await ownRead(model, "wordpress/0"));
  });

  it("a unit that has run: its saved state, the scopes it entered, no longer allocating; what it reads of itself", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress" });
    await deploy(api, model, { charm: "mysql" });
    const db = (await integrate(api, model, "wordpress", "mysql")).id as number;
    await lifecycle(api, model).enter(db, "wordpress/0", "10.0.0.1");
    await agent(api, model).run("wordpress/0", "install", "SUCCEEDED");
    await api.ok(SET_AGENT_STATE, { input: { model, unit: "wordpress/0", state: { installed: true, marker: 7 } } });
    const { startup } = await issue(model, "wordpress/0");
    expect(startup).toMatchObject({ agentState: { installed: true, marker: 7 }, relationsInScope: [db], allocating: false });
    expect(startup).toEqual(await ownRead(model, "wordpress/0"));
  });

  it("is refused with the credentials for a Dead unit: NOT_ALIVE, nothing issued", async () => {
    const model = await api.newModel();
    await deploy(api, model, { charm: "wordpress" });
    await api.ok(`mutation ($input: RemoveUnitInput!) { removeUnit(input: $input) { outcome } }`, {
      input: { model, units: ["wordpress/0"] },
    });
    await api.ok(`mutation ($input: UnitTargetInput!) { setUnitDead(input: $input) { name } }`, { input: { model, unit: "wordpress/0" } });
    const refusal = await api.refused("NOT_ALIVE", ISSUE, { input: { model, unit: "wordpress/0" } });
    expect(refusal.message).toMatch(/wordpress\/0/);
  });
});
