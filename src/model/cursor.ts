// Page cursors are row sequence numbers, sent as decimal strings: anything else
// (or a number past what a double holds exactly) is refused before it reaches SQL.
import { LifelineError, shortQuote } from "../core/errors.js";

export function cursorValue(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  if (!/^\d{1,15}$/.test(cursor))
    throw new LifelineError("INVALID_ARGUMENT", `invalid cursor ${shortQuote(cursor)}: pass a cursor this API returned`);
  return Number(cursor);
}
