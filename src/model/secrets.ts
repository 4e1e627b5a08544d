// Bearer secrets: 256 random bits, kept only as a SHA-256 hash (a fast hash is enough for secrets that long).
import * as crypto from "node:crypto";

/**
 * A token's hash, as stored. Every request hashes its tokens (a bulk call up to a hundred): in one call where Node has
 * it (20.12 and later), as a Hash object made for each took 2.5 times as long.
 */
export const hash: (token: string) => string =
  typeof crypto.hash === "function"
    ? (token) => crypto.hash("sha256", token, "hex")
    : (token) => crypto.createHash("sha256").update(token).digest("hex");

/** A new secret, named by its kind: `llt_` a person's token, `llm_`/`llu_` an agent's, `login_` a login link's code. */
export const newToken = (prefix: string) => `${prefix}_${crypto.randomBytes(32).toString("base64url")}`;
