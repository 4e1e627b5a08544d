// Routing changes to the streams that may want them. A model with N unit agents
// has about 4N streams open (each agent's unit, relations and relation members),
// and offering every change to every stream costs N² as the model grows. So a
// watcher may name the routes of the changes it can cover, and the feed offers a
// change only to the streams on one of its routes (and to streams with no routes,
// which see everything). A watcher that learns as it goes (a machine's units) adds
// routes as it learns; what it has not learned yet must reach it on a route it
// named from the start, or learn in its snapshot.
import type { Role } from "../core/relation.js";
import type { EntityEvent } from "./stream-event.js";

/** The routes a change travels on: its own entity and kind, and the entities it is about. */
export function routesOf(e: EntityEvent): string[] {
  const keys = [`${e.kind}:${e.entity}`, `kind:${e.kind}`];
  switch (e.kind) {
    case "machine": {
      // A container ("0/lxd/1", "0/lxd/1/kvm/0") is on the route of each machine it is nested in ("0", "0/lxd/1").
      const parts = e.entity.split("/");
      for (let n = 1; n < parts.length; n += 2) keys.push(route.containersOf(parts.slice(0, n).join("/")));
      break;
    }
    case "unit": {
      const { machineId, principal } = e.fields;
      if (typeof machineId === "string") keys.push(`unit-on-machine:${machineId}`);
      if (typeof principal === "string") keys.push(`unit-of-principal:${principal}`);
      break;
    }
    case "relation": {
      // A relation's key names its endpoints ("wordpress:db mysql:db"); its life rows name neither.
      const { endpoints, key } = e.fields;
      const named = new Set([...(endpoints ?? []), ...(key?.split(" ") ?? [])].map((endpoint) => endpoint.split(":")[0]));
      for (const application of named) keys.push(`relation-of:${application}`);
      break;
    }
    case "scope":
      // Seen by the units of the counterpart role (in its container, for container scope): a
      // relation's N members each watch it, and a route per relation would offer every entry N times.
      keys.push(route.membersOf(e.fields.relationId, e.fields.role, e.fields.container));
      break;
    // A settings row travels on its own entity's route, which a watcher takes once the unit is in its scope.
  }
  return keys;
}

export const route = {
  entity: (kind: EntityEvent["kind"], id: string) => `${kind}:${id}`,
  kind: (kind: EntityEvent["kind"]) => `kind:${kind}`,
  containersOf: (machine: string) => `containers-of:${machine}`,
  unitsOnMachine: (machine: string) => `unit-on-machine:${machine}`,
  unitsOfPrincipal: (principal: string) => `unit-of-principal:${principal}`,
  relationsOf: (application: string) => `relation-of:${application}`,
  membersOf: (relation: number, role: Role, container: string | null) => `members-of:${relation}:${role}:${container ?? ""}`,
};

type RouteListener = (key: string, added: boolean) => void;

/** A watcher's routes, which it may add to and take from while its stream is open. */
export class Routes {
  private readonly keys = new Set<string>();
  private listener: RouteListener | null = null;

  constructor(initial: Iterable<string>) {
    for (const key of initial) this.keys.add(key);
  }

  add(key: string): void {
    if (this.keys.has(key)) return;
    this.keys.add(key);
    this.listener?.(key, true);
  }

  delete(key: string): void {
    if (!this.keys.delete(key)) return;
    this.listener?.(key, false);
  }

  /** The feed follows the routes from now on, starting with those already there. */
  bind(listener: RouteListener): void {
    this.listener = listener;
    for (const key of this.keys) listener(key, true);
  }

  /** The feed stops following them, and forgets them all. */
  unbind(): void {
    const listener = this.listener;
    this.listener = null;
    for (const key of this.keys) listener?.(key, false);
  }
}

/**
 * The routes of several watchers served by one stream (watchers.ts, `together`): every key any of them names, for as
 * long as one still names it. The parts are followed from now on; the feed binds the result as it binds any.
 */
export function routesTogether(parts: readonly Routes[]): Routes {
  const all = new Routes([]);
  const named = new Map<string, number>();
  for (const part of parts)
    part.bind((key, added) => {
      const count = (named.get(key) ?? 0) + (added ? 1 : -1);
      if (count > 0) named.set(key, count);
      else named.delete(key);
      if (added && count === 1) all.add(key);
      else if (!added && count === 0) all.delete(key);
    });
  return all;
}
