// Relay connections over keyset pages of the store, in creation order.
import { resolveCursorConnection, type DefaultConnectionArguments } from "@pothos/plugin-relay";
import type { InferSelectModel, SQL } from "drizzle-orm";
import { page, type Paged } from "../model/read.js";
import type { Context } from "./context.js";

/** At most this many nodes a page, whatever `first`/`last` ask for. */
export const MAX_PAGE = 1000;

export function pagedConnection<T extends Paged>(ctx: Context, table: T, where: SQL | undefined, args: DefaultConnectionArguments) {
  return resolveCursorConnection<Promise<InferSelectModel<T>[]>>(
    { args, toCursor: (row) => String((row as { seq: number }).seq), maxSize: MAX_PAGE, defaultSize: 100 },
    (window) => page(ctx.db, table, where, window),
  );
}
