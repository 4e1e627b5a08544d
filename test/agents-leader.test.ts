// One process per database runs the agents (src/server/agent-leader.ts): the
// one holding the agents' advisory lock. The election's rules, on a lock kept
// in memory; then on PostgreSQL, server processes on one fresh database of
// their own (a leader's agents take on every model in the database, so the
// shared test database would give them other tests' models): only the leader
// provisions, and when it dies another takes over, boots the instances from
// the shared cloud file and provisions what comes next. PGlite admits one
// process per data directory, which always runs them: those tests skip on
// PGlite, and say so.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentLeader, agentsLock, type LeaderLock } from "../src/server/agent-leader.js";
import { type LifelineProcess, startLifeline } from "./support/lifeline-process.js";
import { onPostgres, uniqueName } from "./support/store.js";
import { scaled } from "./support/time-scale.js";

const DEADLINE = { timeout: scaled(30_000), interval: 50 };

/** One lock for several would-be leaders, in memory; `drop` ends a holder's session, as a dropped connection does. */
class MemoryLock {
  holder: string | null = null;
  readonly lost = new Map<string, () => void>();
  for(name: string): (lost: () => void) => LeaderLock {
    return (lost) => {
      this.lost.set(name, lost);
      return {
        tryAcquire: async () => {
          this.holder ??= name;
          return this.holder === name;
        },
        held: async () => this.holder === name,
        holder: async () => this.holder,
        release: async () => {
          if (this.holder === name) this.holder = null;
        },
        close: async () => {
          if (this.holder === name) this.holder = null;
        },
      };
    };
  }
  drop(name: string): void {
    if (this.holder === name) this.holder = null;
    this.lost.get(name)?.();
  }
}

/** A would-be leader whose "agents" are a flag, and its log. */
function candidate(lock: (lost: () => void) => LeaderLock, lead: () => Promise<void> = async () => {}) {
  const state = { running: false, starts: 0, lines: [] as string[] };
  const leader = new AgentLeader({
    lock,
    lead: async () => {
      await lead();
      state.running = true;
      state.starts++;
      return async () => {
        state.running = false;
      };
    },
    retryMs: 20,
    log: (line) => state.lines.push(line),
  });
  return { leader, state };
}

describe("the election", () => {
  it("the first to take the lock runs the agents, before start() resolves; another waits, and says who runs them", async () => {
    const lock = new MemoryLock();
    const a = candidate(lock.for("process-a"));
    const b = candidate(lock.for("process-b"));
    await a.leader.start();
    await b.leader.start();
    expect([a.state.running, b.state.running]).toEqual([true, false]);
    expect(a.state.lines).toEqual([`agents: this process (pid ${process.pid}) runs the agents`]);
    expect(b.state.lines).toEqual(["agents: they run in another process (process-a); this one takes over if that one stops"]);
    await Promise.all([a.leader.stop(), b.leader.stop()]);
  });

  it("when the leader stops, another takes over", async () => {
    const lock = new MemoryLock();
    const a = candidate(lock.for("process-a"));
    const b = candidate(lock.for("process-b"));
    await a.leader.start();
    await b.leader.start();
    await a.leader.stop();
    expect(a.state.running).toBe(false);
    await expect.poll(() => b.state.running, DEADLINE).toBe(true);
    await b.leader.stop();
  });

  it("a leader that loses the lock stops its agents at once, and runs them again once it gets the lock back", async () => {
    const lock = new MemoryLock();
    const a = candidate(lock.for("process-a"));
    await a.leader.start();
    lock.holder = "process-b"; // another process took it while a's session was gone
    lock.drop("process-a");
    await expect.poll(() => a.state.running, DEADLINE).toBe(false);
    expect(a.state.lines).toContain("agents: this process lost the agents' lock (its database connection dropped); stopping its agents");
    lock.holder = null;
    await expect.poll(() => a.state.starts, DEADLINE).toBe(2);
    await a.leader.stop();
  });

  it("agents that end by themselves (their thread died) are given up with the lock, and a later round starts them again", async () => {
    const lock = new MemoryLock();
    const a = candidate(lock.for("process-a"));
    await a.leader.start();
    await a.leader.agentsEnded("their thread exited with code 1");
    expect(a.state.running).toBe(false);
    expect(a.state.lines).toContain(
      "agents: they stopped by themselves (their thread exited with code 1); gave the lock up, starting them again later",
    );
    await expect.poll(() => a.state.starts, DEADLINE).toBe(2);
    expect(lock.holder).toBe("process-a");
    await a.leader.stop();
  });

  it("agents that cannot start at start fail it, and give the lock up", async () => {
    const lock = new MemoryLock();
    const a = candidate(lock.for("process-a"), async () => {
      throw new Error("the cloud file is not JSON");
    });
    await expect(a.leader.start()).rejects.toThrow("the cloud file is not JSON");
    expect(lock.holder).toBeNull();
  });

  it("agents that cannot start on a takeover give the lock up and are tried again later", async () => {
    const lock = new MemoryLock();
    let failures = 1;
    lock.holder = "process-b";
    const a = candidate(lock.for("process-a"), async () => {
      if (failures-- > 0) throw new Error("not yet");
    });
    await a.leader.start();
    lock.holder = null;
    await expect.poll(() => a.state.running, DEADLINE).toBe(true);
    expect(a.state.lines).toContain("agents: could not start them: Error: not yet; gave the lock up, trying again later");
    await a.leader.stop();
  });
});

describe.skipIf(!onPostgres)(
  "one agent-running process per PostgreSQL database (skipped on PGlite: one process per data directory)",
  () => {
    const dir = mkdtempSync(join(tmpdir(), "lifeline-leader-"));
    const admin = onPostgres ? postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} }) : null;
    const database = uniqueName("lifeline_leader").replaceAll("-", "_");
    const url = new URL(process.env.DATABASE_URL ?? "postgres://unused");
    url.pathname = `/${database}`;
    const databaseUrl = url.toString();

    beforeAll(async () => {
      await admin!.unsafe(`create database "${database}"`);
    });
    afterAll(async () => {
      for (const server of servers) if (server.child.exitCode === null) server.child.kill("SIGKILL");
      await Promise.all(servers.map((s) => s.exited));
      await admin?.unsafe(`drop database if exists "${database}" with (force)`);
      await admin?.end();
      rmSync(dir, { recursive: true, force: true });
    });

    const servers: LifelineProcess[] = [];
    /** A server process on the fresh database; all share one cloud file, as processes on one host would. */
    function server(name: string, env: Record<string, string> = {}) {
      const named = new URL(databaseUrl);
      named.searchParams.set("application_name", name);
      const started = startLifeline({
        DATABASE_URL: named.toString(),
        LIFELINE_AGENTS: "1",
        LIFELINE_AGENTS_ELECTION_MS: "200",
        LIFELINE_CLOUD_FILE: join(dir, "cloud.json"),
        LIFELINE_PROVISIONER_POLL_MS: "200",
        ...env,
      });
      servers.push(started);
      return started;
    }

    const MACHINES = `{ model(name: "default") { machines { edges { node { id instanceId status { current } } } } } }`;
    const machine = async (via: LifelineProcess, id: string) =>
      (await via.ok(MACHINES)).model.machines.edges.map((e: any) => e.node).find((m: any) => m.id === id) ?? null;
    const CLOUD = `{ cloud { instances { id machineId } } }`;
    const cloudOf = async (via: LifelineProcess) => (await via.ok(CLOUD)).cloud.instances;
    const RUNS = /agents: this process \(pid \d+\) runs the agents/;

    let off: LifelineProcess;
    let a: LifelineProcess;
    let b: LifelineProcess;

    it("LIFELINE_AGENTS=0 never runs them; of the others, the first runs them and the second says which process does", {
      timeout: scaled(120_000),
    }, async () => {
      off = server("lifeline_off", { LIFELINE_AGENTS: "0" });
      await off.ready();
      expect(off.output()).toContain("agents: off (LIFELINE_AGENTS=0)");
      a = server("lifeline_a");
      await a.ready();
      expect(a.output()).toMatch(RUNS);
      b = server("lifeline_b");
      await b.ready();
      expect(b.output()).not.toMatch(RUNS);
      expect(b.output()).toContain(`agents: they run in another process (lifeline_a agents `);
      expect(b.output()).toMatch(new RegExp(`another process \\(lifeline_a agents \\S+ pid ${a.child.pid}\\)`));
    });

    it("only the leader provisions: a machine added through a follower gets one instance, in the leader's cloud", async () => {
      const { id } = (await b.ok(`mutation { addMachine(input: { model: "default" }) { id } }`)).addMachine;
      // Its agent may report started before the provisioner's recording of the instance commits: wait for both.
      await expect
        .poll(async () => {
          const m = await machine(b, id);
          return m && m.status.current === "started" && m.instanceId !== null;
        }, DEADLINE)
        .toBe(true);
      const { instanceId } = await machine(b, id);
      expect(await cloudOf(a)).toEqual([{ id: instanceId, machineId: id }]);
      // Machine 0's credentials were issued once, by the leader's controller, for its one provisioner.
      expect(a.output().match(/provisioner of model default started/g)).toHaveLength(1);
      for (const follower of [b, off]) {
        expect(follower.output()).not.toMatch(/provisioner of model/);
        const refused = await follower.ok(CLOUD).catch((error: Error) => error.message);
        expect(refused).toMatch(/"code":"NOT_FOUND"/);
      }
    });

    it("killed, the leader frees the lock: another process takes over, boots the instances from the cloud file, provisions what comes next", {
      timeout: scaled(60_000),
    }, async () => {
      a.child.kill("SIGKILL");
      await a.exited;
      await b.until(RUNS);
      await b.until(/machine-1: started/); // the instance a started, booted from the shared cloud file
      const { id } = (await b.ok(`mutation { addMachine(input: { model: "default" }) { id } }`)).addMachine;
      await expect.poll(async () => (await machine(b, id))?.status.current, DEADLINE).toBe("started");
      expect((await cloudOf(b)).map((i: any) => i.machineId)).toEqual(["1", id]);
      expect(off.output()).not.toMatch(RUNS);
    });

    it("a leader whose lock connection drops stops its agents; the lock is free again for whoever asks first", async () => {
      const lock = (name: string) => (lost: () => void) => {
        const named = new URL(databaseUrl);
        named.searchParams.set("application_name", name);
        return agentsLock(named.toString(), lost);
      };
      // b still holds the lock; these two wait for it on connections of their own.
      const c = candidate(lock("leader_c"));
      const d = candidate(lock("leader_d"));
      await c.leader.start();
      await d.leader.start();
      expect([c.state.running, d.state.running]).toEqual([false, false]);
      b.child.kill("SIGKILL");
      await b.exited;
      await expect.poll(() => c.state.running || d.state.running, DEADLINE).toBe(true);
      const [leader, name] = c.state.running ? [c, "leader_c"] : [d, "leader_d"];
      await admin!.unsafe(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${database}' and application_name like '${name} agents %'`,
      );
      await expect
        .poll(() => leader.state.lines, DEADLINE)
        .toContain("agents: this process lost the agents' lock (its database connection dropped); stopping its agents");
      // A new term: one of them (the old leader, reconnected, or the other) runs the agents, and only one.
      await expect.poll(() => c.state.starts + d.state.starts, DEADLINE).toBe(2);
      await expect.poll(() => [c.state.running, d.state.running].filter(Boolean).length, DEADLINE).toBe(1);
      await Promise.all([c.leader.stop(), d.leader.stop()]);
    });
  },
);
