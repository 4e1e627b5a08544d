// Small GraphQL snippets the API tests share.
import { sql } from "drizzle-orm";
import type { Api } from "./api.js";

export const DEPLOY = `mutation ($input: DeployInput!) { deploy(input: $input) { name life series subordinate unitCount units { edges { node { name series machine { id series } } } } } }`;
export const ADD_UNIT = `mutation ($input: AddUnitInput!) { addUnit(input: $input) { name series machine { id series containerType } } }`;
export const ADD_MACHINE = `mutation ($input: AddMachineInput!) { addMachine(input: $input) { id series jobs containerType parent { id } constraints { text } } }`;
export const INTEGRATE = `mutation ($input: IntegrateInput!) { integrate(input: $input) { id key scope interface life endpoints { applicationName name role scope } } }`;
export const SET_CONSTRAINTS = `mutation ($input: SetConstraintsInput!) { setConstraints(input: $input) { text } }`;
export const ADD_CHARM = `mutation ($input: AddCharmInput!) { addCharm(input: $input) { url name revision subordinate series endpoints { name role interface scope implicit } } }`;

/**
 * Deploys, then provisions the new machines as the provisioner would: these
 * tests play every agent's part by hand, and a unit whose machine was never
 * provisioned would be removed at once instead of going Dying (seed 004).
 */
export async function deploy(api: Api, model: string, input: Record<string, unknown>) {
  const deployed = (await api.ok(DEPLOY, { input: { model, ...input } })).deploy;
  await provisionMachines(api, model);
  return deployed;
}

/** `addUnit`, then the new machines provisioned (see deploy). */
export async function addUnit(api: Api, model: string, input: Record<string, unknown>) {
  const added = (await api.ok(ADD_UNIT, { input: { model, ...input } })).addUnit;
  await provisionMachines(api, model);
  return added;
}

const PROVISION = `mutation ($input: ProvisionedInput!) { setMachineProvisioned(input: $input) { id } }`;

/** Records an instance for every Alive machine of the model that has none, as the provisioner does. */
export async function provisionMachines(api: Pick<Api, "ok">, model: string) {
  const data = await api.ok(
    `query ($model: String!) { model(name: $model) { machines(first: 1000) { edges { node { id life instanceId jobs } } } } }`,
    { model },
  );
  for (const { node } of data.model.machines.edges)
    if (node.instanceId === null && node.life === "ALIVE" && !node.jobs.includes("MANAGE_MODEL"))
      await api.ok(PROVISION, { input: { model, machine: node.id, instanceId: `i-test-${node.id.replaceAll("/", "-")}` } });
}

export const integrate = (api: Api, model: string, a: string, b: string) =>
  api.ok(INTEGRATE, { input: { model, endpoints: [a, b] } }).then((d) => d.integrate);

/**
 * Marks an entity Dying directly in the store. The remove operations that do
 * this through the API come with the destruction issue; until then the
 * creation rules about non-Alive targets are exercised this way.
 */
export async function markDying(api: Api, model: string, table: "applications" | "machines" | "units" | "relations", key: string) {
  const column = { applications: "name", machines: "id", units: "name", relations: "id" }[table];
  await api.store.db.execute(
    sql`update ${sql.identifier(table)} set life = 'dying' where ${sql.identifier(column)} = ${key} and model_id = (select id from models where name = ${model})`,
  );
}

/** Everything a create operation could have touched, for "nothing changed" checks. */
export async function snapshot(api: Api, model: string) {
  const data = await api.ok(
    `query ($model: String!) { model(name: $model) {
      revision constraints { text }
      machines(first: 1000) { edges { node { id life series constraints { text } units { name } } } }
      applications(first: 1000) { edges { node { name life series unitCount relationCount constraints { text } } } }
      units(first: 1000) { edges { node { name life machine { id } } } }
      relations(first: 1000) { edges { node { id key life } } }
      charms(first: 1000) { edges { node { url } } }
    } }`,
    { model },
  );
  return data.model;
}
