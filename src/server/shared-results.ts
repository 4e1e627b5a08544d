// Which execution results more than one subscriber may be handed (shared-execution.ts
// makes them, shared-frames.ts and live-frames.ts serialize each of them once).

const shared = new WeakSet<object>();

export const isSharedResult = (result: object) => shared.has(result);

/** Marks `result` as shared; returns it. */
export function markShared<T extends object>(result: T): T {
  shared.add(result);
  return result;
}
