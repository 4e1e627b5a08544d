// A PostgreSQL server of the test's own: initdb into a temporary directory, started on a
// free loopback port, which the test may stop, kill, restart, stream to a standby and
// promote that standby, as the machine's shared server must never be. Each is removed at
// the end of its test file (afterAll), or when the test process exits.
//
// PostgreSQL refuses to run as root: as root (as CI and these machines run), every server
// command runs as the `postgres` user, in a directory it owns (as .ci/run does). Where the
// binaries or that user are missing, `ownPostgres()` says why, and tests skip saying so;
// LIFELINE_REQUIRE_OWN_PG=1 (as .ci/run sets) makes them run and fail instead.
import { execFile, spawnSync } from "node:child_process";
import { accessSync, chmodSync, chownSync, constants, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll } from "vitest";
import { freePort } from "./ports.js";
import { scaled } from "./time-scale.js";

const TOOLS = ["initdb", "pg_ctl", "pg_basebackup", "postgres"] as const;
/** pg_ctl's own wait (-t), in seconds; each command as a whole gets a little longer. */
const WAIT_S = Math.ceil(scaled(60_000) / 1000);

export interface OwnPostgresOptions {
  /** Stream to standbys (`startStandby`): wal_level=replica, wal senders and slots, hot standby. */
  replication?: boolean;
  /** More `-c name=value` settings for the server's command line. */
  settings?: Record<string, string | number>;
}

export interface OwnPostgres {
  readonly port: number;
  /** Its temporary directory: the data directory (`data`), the socket and the server log (`server.log`). */
  readonly dir: string;
  /** `postgres://postgres@127.0.0.1:<port>/<database>` (trust authentication). */
  url(database?: string): string;
  /** Creates a database and returns its url. */
  createDatabase(name: string): Promise<string>;
  /** Runs one statement on a connection of its own (default database `postgres`) and returns its rows. */
  query<T = Record<string, unknown>>(text: string, database?: string): Promise<T[]>;
  /** `pg_ctl stop -m <mode>`: "fast" disconnects everyone and shuts down cleanly, "immediate" as if the power went. */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  /** Starts it again on the same port (after stop or kill), and waits until it accepts connections. */
  start(): Promise<void>;
  restart(mode?: "fast" | "immediate"): Promise<void>;
  /** SIGKILLs the postmaster and waits until it and its children are gone (a crash, not a shutdown). */
  kill(): Promise<void>;
  /** `pg_ctl promote -w`: a standby becomes a primary that takes writes. */
  promote(): Promise<void>;
  /** The server log so far, for failure messages. */
  log(): string;
  /** Stops it (immediate) and removes its directory. Idempotent. */
  close(): Promise<void>;
}

export interface Availability {
  /** Whether tests needing their own server should run: the tools are there, or LIFELINE_REQUIRE_OWN_PG=1 says they must. */
  run: boolean;
  /** Why they cannot run here, or null. */
  missing: string | null;
}

/** The newest PostgreSQL binaries directory: LIFELINE_PG_BIN, /usr/lib/postgresql/<newest>/bin, or PATH's. */
function findBin(): string | null {
  const has = (dir: string) =>
    TOOLS.every((tool) => {
      try {
        accessSync(join(dir, tool), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
  if (process.env.LIFELINE_PG_BIN) return has(process.env.LIFELINE_PG_BIN) ? process.env.LIFELINE_PG_BIN : null;
  const debian = "/usr/lib/postgresql";
  const versions = existsSync(debian)
    ? readdirSync(debian)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) if (has(join(debian, version, "bin"))) return join(debian, version, "bin");
  for (const dir of (process.env.PATH ?? "").split(":")) if (dir && has(dir)) return dir;
  return null;
}

const asRoot = process.getuid?.() === 0;

/** The postgres user's uid and gid, when running as root; null when there is no such user. */
function postgresUser(): { uid: number; gid: number } | null {
  const uid = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

const bin = findBin();
const user = asRoot ? postgresUser() : null;

function whyMissing(): string | null {
  if (!bin) return `no PostgreSQL binaries (${TOOLS.join(", ")}) in LIFELINE_PG_BIN, /usr/lib/postgresql/*/bin or PATH`;
  if (asRoot && !user) return "running as root, and there is no `postgres` user to run the server as (PostgreSQL refuses root)";
  if (asRoot && !existsSync("/usr/sbin/runuser") && !existsSync("/sbin/runuser") && !existsSync("/usr/bin/runuser"))
    return "running as root without runuser(1) to run the server as `postgres`";
  return null;
}

/** Whether this machine can run a PostgreSQL of the test's own, and whether tests must. */
export function ownPostgres(): Availability {
  const missing = whyMissing();
  return { run: missing === null || process.env.LIFELINE_REQUIRE_OWN_PG === "1", missing };
}

/** A describe title's suffix saying why it is skipped, or nothing when it runs. */
export function skipNote(availability = ownPostgres()): string {
  return availability.run ? "" : ` (skipped: ${availability.missing}; LIFELINE_REQUIRE_OWN_PG=1 makes this a failure)`;
}

/** Runs a server command, as `postgres` when we are root; rejects with its output on failure. */
function run(tool: string, args: string[], cwd: string): Promise<string> {
  const command = join(bin!, tool);
  const [file, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
  return new Promise((resolve, reject) => {
    execFile(file, argv, { cwd, timeout: (WAIT_S + 30) * 1000, encoding: "utf8" }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${tool} ${args.join(" ")} failed: ${error.message}\n${stdout}${stderr}`));
      else resolve(stdout + stderr);
    });
  });
}

/** A temporary directory the server's user owns (mode 700, as initdb wants). */
function ownedDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (user) chownSync(dir, user.uid, user.gid);
  chmodSync(dir, 0o700);
  return dir;
}

const live = new Set<Server>();

function stopAllNow() {
  for (const server of live) server.closeNow();
}
process.once("exit", stopAllNow);
afterAll(async () => {
  await Promise.all([...live].map((server) => server.close()));
});

async function waitUntil(done: () => boolean | Promise<boolean>, what: string, timeoutMs = WAIT_S * 1000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await done())) {
    if (performance.now() > deadline) throw new Error(`deadline passed waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

class Server implements OwnPostgres {
  readonly dir: string;
  readonly port: number;
  readonly #settings: string;
  #running = false;
  #closed = false;

  constructor(dir: string, port: number, settings: Record<string, string | number>) {
    this.dir = dir;
    this.port = port;
    this.#settings = Object.entries({ listen_addresses: "127.0.0.1", port, fsync: "off", ...settings })
      .map(([name, value]) => `-c ${name}=${value}`)
      .join(" ");
  }

  get #data() {
    return join(this.dir, "data");
  }

  url(database = "postgres") {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async query<T>(text: string, database?: string): Promise<T[]> {
    const sql = postgres(this.url(database), { max: 1, connect_timeout: 10, onnotice: () => {}, fetch_types: false });
    try {
      return (await sql.unsafe(text)) as unknown as T[];
    } finally {
      await sql.end({ timeout: 5 });
    }
  }

  async createDatabase(name: string) {
    await this.query(`create database "${name.replace(/"/g, '""')}"`);
    return this.url(name);
  }

  async start() {
    // The socket goes in our own directory, not /var/run/postgresql (which may not exist, or be another server's).
    const options = `-k ${this.dir} ${this.#settings}`;
    try {
      await run(
        "pg_ctl",
        ["-D", this.#data, "-l", join(this.dir, "server.log"), "-w", "-t", String(WAIT_S), "-o", options, "start"],
        this.dir,
      );
    } catch (error) {
      throw new Error(`${(error as Error).message}\nserver log:\n${this.log().slice(-3000)}`);
    }
    this.#running = true;
  }

  async stop(mode: "fast" | "immediate" = "fast") {
    await run("pg_ctl", ["-D", this.#data, "-m", mode, "-w", "-t", String(WAIT_S), "stop"], this.dir);
    this.#running = false;
  }

  async restart(mode: "fast" | "immediate" = "fast") {
    await this.stop(mode);
    await this.start();
  }

  async kill() {
    const pid = this.#postmasterPid();
    if (pid === null) throw new Error(`no postmaster.pid in ${this.#data}: the server is not running`);
    // Its backends notice their postmaster died and exit; until they all have, the shared memory is in use and a
    // new postmaster refuses to start. Its children are known before the kill: none can be started after it.
    const processes = [pid, ...childrenOf(pid)];
    process.kill(pid, "SIGKILL");
    await waitUntil(() => !processes.some(running), `the killed postmaster ${pid} and its children to exit`);
    // Its lock files are left behind. A new postmaster takes a pid in them that answers kill(pid, 0) for another
    // postmaster and refuses to start, and a killed one stays a zombie until something reaps it (here, not soon).
    rmSync(join(this.#data, "postmaster.pid"), { force: true });
    rmSync(join(this.dir, `.s.PGSQL.${this.port}.lock`), { force: true });
    this.#running = false;
  }

  async promote() {
    await run("pg_ctl", ["-D", this.#data, "-w", "-t", String(WAIT_S), "promote"], this.dir);
  }

  log() {
    try {
      return readFileSync(join(this.dir, "server.log"), "utf8");
    } catch {
      return "";
    }
  }

  async close() {
    if (this.#closed) return;
    this.#closed = true;
    live.delete(this);
    if (this.#running || this.#postmasterPid() !== null) await this.stop("immediate").catch(() => {});
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** At process exit, where nothing can be awaited. */
  closeNow() {
    if (this.#closed) return;
    this.#closed = true;
    const command = join(bin!, "pg_ctl");
    const args = ["-D", this.#data, "-m", "immediate", "-w", "stop"];
    if (this.#postmasterPid() !== null)
      spawnSync(asRoot ? "runuser" : command, asRoot ? ["-u", "postgres", "--", command, ...args] : args, { timeout: scaled(30_000) });
    rmSync(this.dir, { recursive: true, force: true });
  }

  #postmasterPid(): number | null {
    try {
      const pid = Number(readFileSync(join(this.#data, "postmaster.pid"), "utf8").split("\n")[0]);
      return Number.isInteger(pid) && pid > 0 ? pid : null;
    } catch {
      return null;
    }
  }
}

/** `/proc/<pid>/stat`'s fields after the command name (state, ppid, …), or null when there is no such process. */
function statOf(pid: number | string): string[] | null {
  try {
    // pid (comm) state ppid …; comm may hold spaces and parentheses, so read after its last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** Whether `pid` runs (a zombie nobody reaped has exited). */
const running = (pid: number) => {
  const state = statOf(pid)?.[0];
  return state !== undefined && state !== "Z" && state !== "X";
};

/** The processes whose parent is `pid` (from /proc). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (/^\d+$/.test(entry) && Number(statOf(entry)?.[1]) === pid) children.push(Number(entry));
  }
  return children;
}

function assertAvailable() {
  const missing = whyMissing();
  if (missing) throw new Error(`cannot start a PostgreSQL of the test's own: ${missing}`);
}

async function startOn(dir: string, settings: Record<string, string | number>): Promise<Server> {
  // A free port, found by binding port 0; tried again in case another process takes it first.
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const server = new Server(dir, await freePort(), settings);
    live.add(server);
    try {
      await server.start();
      return server;
    } catch (error) {
      live.delete(server);
      lastError = error;
    }
  }
  rmSync(dir, { recursive: true, force: true });
  throw lastError;
}

const REPLICATION = { wal_level: "replica", max_wal_senders: 5, max_replication_slots: 5, hot_standby: "on" } as const;

/** initdb into a fresh temporary directory and start it on a free loopback port. */
export async function startOwnPostgres(options: OwnPostgresOptions = {}): Promise<OwnPostgres> {
  assertAvailable();
  const dir = ownedDir("lifeline-pg-");
  try {
    await run("initdb", ["-D", join(dir, "data"), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"], dir);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return startOn(dir, { ...(options.replication ? REPLICATION : {}), ...options.settings });
}

export interface StandbyOptions {
  /**
   * Make it the primary's synchronous standby (`synchronous_standby_names = '*'`, set on the primary once the
   * standby streams): a commit is acknowledged only once the standby has flushed it, so a failover to it loses
   * no acknowledged write. Set with ALTER SYSTEM after the base backup, so the standby does not inherit it (a
   * promoted standby waiting for a standby of its own would hold every commit).
   */
  synchronous?: boolean;
}

/** A streaming standby of `primary` (started with `replication: true`): pg_basebackup -R -X stream, on its own free port. */
export async function startStandby(primary: OwnPostgres, options: StandbyOptions = {}): Promise<OwnPostgres> {
  assertAvailable();
  const dir = ownedDir("lifeline-pg-standby-");
  try {
    await run(
      "pg_basebackup",
      [
        "-h",
        "127.0.0.1",
        "-p",
        String(primary.port),
        "-U",
        "postgres",
        "-D",
        join(dir, "data"),
        "-R",
        "-X",
        "stream",
        "-c",
        "fast",
        "--no-sync",
      ],
      dir,
    );
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const standby = await startOn(dir, { ...REPLICATION, cluster_name: `standby_${primary.port}` });
  await waitUntil(
    async () => (await primary.query(`select 1 from pg_stat_replication where state = 'streaming'`)).length > 0,
    `the standby on port ${standby.port} to stream from the primary on ${primary.port}`,
  );
  if (options.synchronous) {
    await primary.query(`alter system set synchronous_standby_names = '*'`);
    await primary.query(`select pg_reload_conf()`);
    await waitUntil(
      async () => (await primary.query(`select 1 from pg_stat_replication where sync_state = 'sync'`)).length > 0,
      `the standby on port ${standby.port} to be synchronous`,
    );
  }
  return standby;
}
