// A relation endpoint's role and scope, as charms declare them (Juju's
// charm.RelationRole and charm.RelationScope).
export const Role = { Provider: "provider", Requirer: "requirer", Peer: "peer" } as const;
export type Role = (typeof Role)[keyof typeof Role];
export const roles = [Role.Provider, Role.Requirer, Role.Peer] as const satisfies readonly Role[];

export const Scope = { Global: "global", Container: "container" } as const;
export type Scope = (typeof Scope)[keyof typeof Scope];
export const scopes = [Scope.Global, Scope.Container] as const satisfies readonly Scope[];

/**
 * Seed 002: "providers observe requirers, requirers observe providers, peers
 * observe each other" (Juju's RelationRole.CounterpartRole).
 */
export const counterpartRole = (own: Role): Role => (own === Role.Peer ? Role.Peer : own === Role.Provider ? Role.Requirer : Role.Provider);
