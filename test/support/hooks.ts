// GraphQL snippets for a unit agent's hook runs, and a helper that plays the agent.
import type { Api } from "./api.js";

export const RUN_FIELDS = "id unitName hook relation remoteUnit result message startedAt endedAt";
export const BEGIN_HOOK = `mutation ($input: BeginHookInput!) { beginHook(input: $input) { ${RUN_FIELDS} } }`;
export const COMMIT_HOOK = `mutation ($input: CommitHookInput!) { commitHook(input: $input) { ${RUN_FIELDS} } }`;
export const RECORD_MISSING_HOOKS = `mutation ($input: RecordMissingHooksInput!) { recordMissingHooks(input: $input) { name agentStatus { current } } }`;
export const RECORD_UNITS_MISSING_HOOKS = `mutation ($input: RecordUnitsMissingHooksInput!) { recordUnitsMissingHooks(input: $input) { name agentStatus { current } } }`;
export const SET_AGENT_STATE = `mutation ($input: UnitAgentStateInput!) { setUnitAgentState(input: $input) { name } }`;
export const RESOLVE_UNIT = `mutation ($input: ResolveUnitInput!) { resolveUnit(input: $input) { name resolved agentStatus { current } } }`;

const UNIT = `query ($model: String!, $unit: String!) { model(name: $model) { revision unit(name: $unit) {
  name life resolved agentState
  agentStatus { current message since hook relation remoteUnit }
  blockers { kind message entities }
  hookRuns(first: 1000) { edges { node { ${RUN_FIELDS} } } }
} } }`;

export function agent(api: Api, model: string) {
  return {
    model,
    begin: (unit: string, hook: string, extra: Record<string, unknown> = {}) =>
      api.ok(BEGIN_HOOK, { input: { model, unit, hook, ...extra } }).then((d) => d.beginHook),
    commit: (unit: string, run: string, result: string, extra: Record<string, unknown> = {}) =>
      api.ok(COMMIT_HOOK, { input: { model, unit, run, result, ...extra } }).then((d) => d.commitHook),
    /** Begins and commits a hook as one agent step. */
    async run(
      unit: string,
      hook: string,
      result: string,
      extra: { begin?: Record<string, unknown>; commit?: Record<string, unknown> } = {},
    ) {
      const run = await this.begin(unit, hook, extra.begin);
      return this.commit(unit, run.id, result, extra.commit);
    },
    resolve: (unit: string, retry?: boolean) =>
      api.ok(RESOLVE_UNIT, { input: { model, unit, ...(retry === undefined ? {} : { retry }) } }).then((d) => d.resolveUnit),
    unit: (unit: string) =>
      api.ok(UNIT, { model, unit }).then((d) => ({ ...d.model.unit, runs: d.model.unit.hookRuns.edges.map((e: any) => e.node) })),
    revision: () => api.ok(`query ($model: String!) { model(name: $model) { revision } }`, { model }).then((d) => d.model.revision),
    settings: (relation: number, unit: string) =>
      api
        .ok(
          `query ($model: String!, $relation: Int!, $unit: String!) { model(name: $model) { relation(id: $relation) { settings(unit: $unit) { version values { key value } } } } }`,
          {
            model,
            relation,
            unit,
          },
        )
        .then((d) => {
          const s = d.model.relation.settings;
          return s && { version: s.version, values: Object.fromEntries(s.values.map((v: any) => [v.key, v.value])) };
        }),
  };
}
