// A unit's charm directory: the hooks its charm ships, downloaded through the
// API (agents never read the store or the repository) and written out as Juju
// lays a charm out (<dir>/hooks/<name>, executable). It is a cache: wiped, it is
// written again from the API, and the agent's progress lives on the server.
import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

export interface CharmFile {
  name: string;
  content: string;
}

/** Replaces `dir` with the charm's hooks. */
export async function writeCharmDir(dir: string, hooks: readonly CharmFile[]): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, "hooks"), { recursive: true });
  for (const hook of hooks) {
    const path = join(dir, "hooks", hook.name);
    await writeFile(path, hook.content);
    await chmod(path, 0o755);
  }
}
