// Relay connections over the model's keyset pages, in creation order.
import { type DefaultConnectionArguments, resolveCursorConnection } from "@pothos/plugin-relay";
import { LifelineError } from "../core/errors.js";
import type { PageWindow } from "../model/index.js";

/** At most this many nodes a page, whatever `first`/`last` ask for. */
export const MAX_PAGE = 1000;
export const DEFAULT_PAGE = 100;

/** How many nodes a page asks for: what the complexity plugin multiplies a connection's selections by. */
export function pageSize(args: DefaultConnectionArguments): number {
  return Math.min(Math.max(args.first ?? args.last ?? DEFAULT_PAGE, 0), MAX_PAGE);
}

/** Refuses what the relay plugin would answer without a code (a negative page size). */
function checkPageArguments(args: DefaultConnectionArguments): void {
  for (const name of ["first", "last"] as const) {
    const value = args[name];
    if (value != null && value < 0)
      throw new LifelineError("INVALID_ARGUMENT", `\`${name}\` must be 0 or more (pages hold at most ${MAX_PAGE})`, { argument: name });
  }
}

export function cursorConnection<R>(
  args: DefaultConnectionArguments,
  toCursor: (row: R) => string,
  page: (window: PageWindow) => Promise<R[]>,
) {
  checkPageArguments(args);
  return resolveCursorConnection({ args, toCursor, maxSize: MAX_PAGE, defaultSize: DEFAULT_PAGE }, page);
}

export function pagedConnection<R extends { seq: number }>(args: DefaultConnectionArguments, page: (window: PageWindow) => Promise<R[]>) {
  return cursorConnection(args, (row: R) => String(row.seq), page);
}
