// Colours by life and status: class names style.css gives colours to.
import type { Life } from "../client/graphql.js";

export const lifeClass = (life: Life | null) => `life-${(life ?? "ALIVE").toLowerCase()}`;

/** A status's word (active, blocked, error, started, pending, down…) as a class. */
export const statusClass = (current: string | null | undefined) => `status-${(current ?? "unknown").toLowerCase().replace(/[^a-z]/g, "")}`;
