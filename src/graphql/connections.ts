// Relay connections over the model's keyset pages, in creation order.
import { type DefaultConnectionArguments, resolveCursorConnection } from "@pothos/plugin-relay";
import type { PageWindow } from "../model/index.js";

/** At most this many nodes a page, whatever `first`/`last` ask for. */
export const MAX_PAGE = 1000;

export function pagedConnection<R extends { seq: number }>(args: DefaultConnectionArguments, page: (window: PageWindow) => Promise<R[]>) {
  return resolveCursorConnection({ args, toCursor: (row: R) => String(row.seq), maxSize: MAX_PAGE, defaultSize: 100 }, page);
}
