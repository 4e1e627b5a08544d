// Turns the model's batch readers into Pothos loaders: a missing key becomes a
// NOT_FOUND error for that key only.
import { notFound } from "../core/errors.js";
import type { Context } from "./context.js";

export function loaderFor<R>(kind: string, read: (db: Context["db"], keys: readonly string[]) => Promise<(R | null)[]>) {
  return async (keys: string[], ctx: Context): Promise<(R | Error)[]> => {
    const rows = await read(ctx.db, keys);
    return rows.map((row, i) => row ?? notFound(kind, keys[i]!.slice(keys[i]!.indexOf(":") + 1)));
  };
}
