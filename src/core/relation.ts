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

/** The applications a relation's canonical key names: "<requirer> <provider>" ("wordpress:db mysql:db"), or one peer endpoint. */
export const applicationsOfKey = (key: string): string[] => key.split(" ").map((endpoint) => endpoint.slice(0, endpoint.indexOf(":")));

/**
 * The role an application plays in a relation, read off its canonical key (requirer first, then provider; a peer
 * relation's key is its one endpoint); null when the key does not name it. An application never relates to itself
 * except as a peer (Juju's CanRelateTo), so the answer is one role.
 */
export function roleInKey(key: string, application: string): Role | null {
  const named = applicationsOfKey(key);
  if (named.length === 1) return named[0] === application ? Role.Peer : null;
  return named[0] === application ? Role.Requirer : named[1] === application ? Role.Provider : null;
}
