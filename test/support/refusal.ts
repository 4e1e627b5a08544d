// Assertions for the model's refusals when called directly (not through GraphQL).
import { expect } from "vitest";
import { type ErrorCode, LifelineError } from "../../src/core/errors.js";

/** Runs `fn`, expecting a LifelineError; returns it for further assertions. */
export function refusal(fn: () => unknown): LifelineError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(LifelineError);
    return error as LifelineError;
  }
  throw new Error("expected a LifelineError, but the call succeeded");
}

/** Asserts `fn` is refused with `code` and a message naming every fragment. */
export function expectRefusedWith(code: ErrorCode, fn: () => unknown, ...named: string[]): LifelineError {
  const error = refusal(fn);
  expect(error.code).toBe(code);
  for (const fragment of named) expect(error.message).toContain(fragment);
  return error;
}
