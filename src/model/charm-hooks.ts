// The hooks a charm ships (its hooks/ directory): executable files named for
// Juju's hooks, kept with the charm so unit agents download them through the
// API (agents never read the store or the repository).
import { LifelineError } from "../core/errors.js";
import type { CharmMetadata } from "./charm-metadata.js";
import { parseHookName } from "./hook-names.js";

/** Bounds on what a charm ships. */
export const HOOK_LIMITS = { hooks: 100, hookBytes: 256 * 1024, totalBytes: 1024 * 1024 } as const;

export interface CharmHook {
  name: string;
  content: string;
}

/** The hooks, by name: each named for a hook the charm can have (its endpoints' relation hooks included), within the bounds. */
export function checkCharmHooks(hooks: readonly CharmHook[], meta: CharmMetadata): Record<string, string> {
  if (hooks.length > HOOK_LIMITS.hooks)
    throw new LifelineError("INVALID_ARGUMENT", `a charm ships at most ${HOOK_LIMITS.hooks} hooks, got ${hooks.length}`);
  const endpoints = meta.endpoints.map((e) => e.name);
  const byName = new Map<string, string>();
  let total = 0;
  for (const { name, content } of hooks) {
    parseHookName(name, endpoints, meta.name);
    if (byName.has(name)) throw new LifelineError("INVALID_ARGUMENT", `hook "${name}" is given more than once`, { hook: name });
    const size = Buffer.byteLength(content, "utf8");
    if (size > HOOK_LIMITS.hookBytes)
      throw new LifelineError("INVALID_ARGUMENT", `hook "${name}" is ${size} bytes, over ${HOOK_LIMITS.hookBytes}`, { hook: name });
    total += size;
    byName.set(name, content);
  }
  if (total > HOOK_LIMITS.totalBytes)
    throw new LifelineError("INVALID_ARGUMENT", `a charm's hooks are at most ${HOOK_LIMITS.totalBytes} bytes together, got ${total}`);
  return Object.fromEntries([...byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
