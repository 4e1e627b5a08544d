// GraphQL snippets for the destruction and agent operations.
import type { Api } from "./api.js";

export const REMOVE_UNIT = `mutation ($input: RemoveUnitInput!) { removeUnit(input: $input) { id outcome } }`;
export const REMOVE_MACHINE = `mutation ($input: RemoveMachineInput!) { removeMachine(input: $input) { id outcome } }`;
export const REMOVE_APPLICATION = `mutation ($input: RemoveApplicationInput!) { removeApplication(input: $input) { id outcome } }`;
export const REMOVE_RELATION = `mutation ($input: RemoveRelationInput!) { removeRelation(input: $input) { id outcome } }`;
export const ENTER_SCOPE = `mutation ($input: EnterScopeInput!) { enterScope(input: $input) { member { unitName role container } subordinateCreated { name } } }`;
export const LEAVE_SCOPE = `mutation ($input: LeaveScopeInput!) { leaveScope(input: $input) { relationRemoved } }`;
export const SET_UNIT_DEAD = `mutation ($input: UnitTargetInput!) { setUnitDead(input: $input) { name life } }`;
export const REMOVE_DEAD_UNIT = `mutation ($input: UnitTargetInput!) { removeDeadUnit(input: $input) }`;
export const SET_MACHINE_DEAD = `mutation ($input: MachineTargetInput!) { setMachineDead(input: $input) { id life } }`;
export const REMOVE_DEAD_MACHINE = `mutation ($input: MachineTargetInput!) { removeDeadMachine(input: $input) }`;
export const RUN_CLEANUPS = `mutation ($model: String) { runCleanups(model: $model) { batches finished remaining } }`;

export function lifecycle(api: Api, model: string) {
  const op = (query: string, input: Record<string, unknown>) => api.ok(query, { input: { model, ...input } });
  return {
    removeUnit: (units: string[], extra: Record<string, unknown> = {}) => op(REMOVE_UNIT, { units, ...extra }).then((d) => d.removeUnit),
    removeMachine: (machines: string[], extra: Record<string, unknown> = {}) =>
      op(REMOVE_MACHINE, { machines, ...extra }).then((d) => d.removeMachine),
    removeApplication: (applications: string[], extra: Record<string, unknown> = {}) =>
      op(REMOVE_APPLICATION, { applications, ...extra }).then((d) => d.removeApplication),
    removeRelation: (relations: string[], extra: Record<string, unknown> = {}) =>
      op(REMOVE_RELATION, { relations, ...extra }).then((d) => d.removeRelation),
    enter: (relation: number, unit: string, privateAddress = `10.0.0.${Math.floor(Math.random() * 250) + 1}`) =>
      op(ENTER_SCOPE, { relation, unit, privateAddress }).then((d) => d.enterScope),
    leave: (relation: number, unit: string) => op(LEAVE_SCOPE, { relation, unit }).then((d) => d.leaveScope),
    setUnitDead: (unit: string) => op(SET_UNIT_DEAD, { unit }).then((d) => d.setUnitDead),
    removeDeadUnit: (unit: string) => op(REMOVE_DEAD_UNIT, { unit }),
    setMachineDead: (machine: string) => op(SET_MACHINE_DEAD, { machine }).then((d) => d.setMachineDead),
    removeDeadMachine: (machine: string) => op(REMOVE_DEAD_MACHINE, { machine }),
    runCleanups: () => api.ok(RUN_CLEANUPS, { model }).then((d) => d.runCleanups),
    /** A unit agent's whole departure: leave every scope, set Dead; then its deployer removes it. */
    async retire(unit: string, relations: number[]) {
      for (const relation of relations) await this.leave(relation, unit);
      await this.setUnitDead(unit);
      await this.removeDeadUnit(unit);
    },
    status: () =>
      api
        .ok(
          `query ($model: String!) { model(name: $model) {
            life blockers { kind message entities }
            machines(first: 1000) { edges { node { id life blockers { kind message entities } } } }
            applications(first: 1000) { edges { node { name life unitCount relationCount blockers { kind message entities } } } }
            units(first: 1000) { edges { node { name life blockers { kind message entities } } } }
            relations(first: 1000) { edges { node { id key life unitCount members { unitName } blockers { kind message entities } } } }
          } }`,
          { model },
        )
        .then((d) => ({
          life: d.model.life,
          blockers: d.model.blockers,
          machines: Object.fromEntries(d.model.machines.edges.map((e: any) => [e.node.id, e.node])),
          applications: Object.fromEntries(d.model.applications.edges.map((e: any) => [e.node.name, e.node])),
          units: Object.fromEntries(d.model.units.edges.map((e: any) => [e.node.name, e.node])),
          relations: Object.fromEntries(d.model.relations.edges.map((e: any) => [e.node.key, e.node])),
        })),
  };
}
