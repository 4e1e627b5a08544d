// Where `lifeline login` keeps the server and its token: the user's config directory (XDG), readable by the user alone.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export interface StoredCredentials {
  url: string;
  token: string;
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "lifeline");
}

export const credentialsFile = (env: NodeJS.ProcessEnv = process.env) => join(configDir(env), "credentials.json");

export function readCredentials(env: NodeJS.ProcessEnv = process.env): StoredCredentials | null {
  try {
    const stored = JSON.parse(readFileSync(credentialsFile(env), "utf8")) as Partial<StoredCredentials>;
    return typeof stored.url === "string" && typeof stored.token === "string" ? { url: stored.url, token: stored.token } : null;
  } catch {
    return null;
  }
}

/** Written 0600 in a 0700 directory: the token is an admin's or an operator's. chmod too, for files made before. */
export function writeCredentials(credentials: StoredCredentials, env: NodeJS.ProcessEnv = process.env): string {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const file = credentialsFile(env);
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

/** True when there was something to forget. */
export function forgetCredentials(env: NodeJS.ProcessEnv = process.env): boolean {
  const had = readCredentials(env) !== null;
  rmSync(credentialsFile(env), { force: true });
  return had;
}
