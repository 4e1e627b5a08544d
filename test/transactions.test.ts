// docs/decisions.md, "Store and write path": serialization failures and deadlocks are retried a
// bounded number of times, then the caller gets a clear contention error.
import { describe, expect, it } from "vitest";
import { LifelineError } from "../src/core/errors.js";
import { advance } from "../src/core/life.js";
import { MAX_ATTEMPTS, transact } from "../src/model/index.js";
import { useApi } from "./support/api.js";

const api = useApi();

const sqlError = (code: string) => Object.assign(new Error(`simulated ${code}`), { code });

describe("transact", () => {
  it("retries a serialization failure and succeeds when the conflict goes away", async () => {
    let attempts = 0;
    const result = await transact(api.store.db, async () => {
      if (++attempts < 3) throw sqlError("40001");
      return "committed";
    });
    expect([result, attempts]).toEqual(["committed", 3]);
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts with CONTENTION`, async () => {
    let attempts = 0;
    const failure = await transact(api.store.db, async () => {
      attempts++;
      throw sqlError("40P01");
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(LifelineError);
    expect((failure as LifelineError).code).toBe("CONTENTION");
    expect((failure as LifelineError).message).toMatch(/excessive contention/);
    expect(attempts).toBe(MAX_ATTEMPTS);
  });

  it("does not retry refusals", async () => {
    let attempts = 0;
    await expect(
      transact(api.store.db, async () => {
        attempts++;
        throw new LifelineError("NOT_FOUND", "no such thing");
      }),
    ).rejects.toThrow("no such thing");
    expect(attempts).toBe(1);
  });
});

describe("life in the domain", () => {
  it("advance refuses to move life backwards", () => {
    expect(advance("unit u/0", "alive", "dying")).toBe("dying");
    expect(advance("unit u/0", "dying", "dying")).toBe("dying");
    expect(() => advance("unit u/0", "dead", "alive")).toThrow("bug: unit u/0 cannot go from dead back to alive");
    expect(() => advance("unit u/0", "dying", "alive")).toThrow(/cannot go from dying back to alive/);
  });
});
