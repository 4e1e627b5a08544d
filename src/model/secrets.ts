// Bearer secrets: 256 random bits, kept only as a SHA-256 hash (a fast hash is enough for secrets that long).
import { createHash, randomBytes } from "node:crypto";

export const hash = (token: string) => createHash("sha256").update(token).digest("hex");

/** A new secret, named by its kind: `llt_` a person's token, `llm_`/`llu_` an agent's, `login_` a login link's code. */
export const newToken = (prefix: string) => `${prefix}_${randomBytes(32).toString("base64url")}`;
