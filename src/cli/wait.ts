// Waiting for an entity to meet a condition, driven by the model's changes stream (no polling): the entity's state is
// built from the snapshot and every change after it, and the condition evaluated on each. An entity that does not
// exist yet is waited for (it may be deployed later). One removed while waited for ends the wait at once: its last
// state, as Dead, is evaluated one final time (so `life=="dead"` is met by a removal), and otherwise the wait fails
// (REMOVED): names are not reused, so it could only time out. At a timeout, what holds the entity is asked once.
import { CliWaitBlockersDocument, CliWaitChangesDocument } from "../client/graphql.js";
import { request, type Server } from "./api.js";
import { NotMet } from "./exit-codes.js";
import { progress as progressLine } from "./progress.js";
import { follow } from "./stream.js";
import type { Condition, Scope, Value } from "./wait-query.js";
import { kindsFor, type WaitKind, WaitState } from "./wait-state.js";

export interface WaitTarget {
  kind: WaitKind;
  name: string;
  model: string;
}

export interface WaitOptions {
  /** Milliseconds before giving up; none waits for ever. */
  timeoutMs?: number;
  /** The progress line's text beside the entity's values ("waiting for …"). */
  purpose?: string;
  /** Whether to show a progress line on a terminal (default yes). */
  progress?: boolean;
}

/** `application wordpress`. */
export const describeTarget = (target: WaitTarget) => `${target.kind} ${target.name}`;

/** A value as a progress line or a timeout shows it: lists by their length. */
const shown = (value: Value | undefined): string => {
  if (Array.isArray(value)) return `[${value.length}]`;
  if (value === null || value === undefined) return "none";
  if (typeof value === "object") return "{…}";
  return typeof value === "string" && /\s/.test(value) ? JSON.stringify(value) : String(value);
};

/** The values a condition reads (or, for a query that reads none, life and status), `life=alive status=waiting`. */
export function describeValues(scope: Scope, reads: readonly string[]): string {
  const fields = reads.length ? reads : ["life", "status"];
  return fields.map((field) => `${field}=${shown(scope[field])}`).join(" ");
}

/** Resolves with the entity's scope once `condition` holds; rejects with NotMet (timeout, removal) or the stream's refusal. */
export function waitFor(server: Server, target: WaitTarget, condition: Condition, options: WaitOptions = {}): Promise<Scope> {
  const what = describeTarget(target);
  const state = new WaitState();
  const line = options.progress === false ? { update() {}, stop() {} } : progressLine(`${what}: connecting`);
  const purpose = options.purpose ?? `waiting for ${condition.text}`;
  let lastSeen: Scope | null = null;
  let settled = false;
  let timer: NodeJS.Timeout | undefined;

  return new Promise<Scope>((resolve, reject) => {
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      line.stop();
      void following.stop().then(outcome, outcome);
    };

    const check = () => {
      const scope = state.scope(target.kind, target.name);
      if (scope) {
        lastSeen = scope;
        if (condition.holds(scope)) return finish(() => resolve(scope));
        return line.update(`${what}: ${describeValues(scope, condition.reads)} (${purpose})`);
      }
      const removed = state.removed.get(what);
      if (removed) {
        lastSeen = removed;
        if (condition.holds(removed)) return finish(() => resolve(removed));
        return finish(() =>
          reject(
            new NotMet("REMOVED", `${what} was removed before ${condition.text} held`, [
              `last seen: ${describeValues(removed, condition.reads)}`,
            ]),
          ),
        );
      }
      line.update(`${what}: not there yet (${purpose})`);
    };

    const following = follow(
      server,
      CliWaitChangesDocument,
      { model: target.model, kinds: kindsFor[target.kind], since: null },
      (data) => data.changes,
      {
        reset: () => state.reset(),
        event: (event) => {
          if (!settled && state.apply(event)) check();
        },
        connection: (status, detail) => {
          if (status === "lost") line.update(`${what}: connection lost (${detail}), reconnecting`);
        },
      },
    );
    following.ended.catch((error: unknown) => finish(() => reject(error)));

    if (options.timeoutMs !== undefined)
      timer = setTimeout(
        () =>
          finish(() => {
            void timedOut(server, target, condition, options.timeoutMs!, lastSeen).then(reject, reject);
          }),
        options.timeoutMs,
      );
  });
}

/** The timeout's account: the condition, what was seen last, and what holds the entity (asked once, now). */
async function timedOut(server: Server, target: WaitTarget, condition: Condition, timeoutMs: number, lastSeen: Scope | null) {
  const what = describeTarget(target);
  const details = [
    lastSeen
      ? `last seen: ${describeValues(lastSeen, condition.reads)}`
      : `last seen: nothing: there is no ${what} in model ${target.model}`,
  ];
  try {
    for (const blocker of await blockersOf(server, target)) details.push(`blocked by ${blocker.kind}: ${blocker.message}`);
  } catch (error) {
    details.push(`blockers: could not ask (${error instanceof Error ? error.message : String(error)})`);
  }
  return new NotMet("TIMED_OUT", `${what}: ${condition.text} not met within ${formatDuration(timeoutMs)}`, details);
}

async function blockersOf(server: Server, target: WaitTarget) {
  const { model } = await request(server, CliWaitBlockersDocument, {
    model: target.model,
    application: target.kind === "application" ? target.name : "",
    unit: target.kind === "unit" ? target.name : "",
    machine: target.kind === "machine" ? target.name : "",
    withApplication: target.kind === "application",
    withUnit: target.kind === "unit",
    withMachine: target.kind === "machine",
  });
  if (!model) return [];
  if (target.kind === "model") return model.blockers;
  return model[target.kind]?.blockers ?? [];
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Go's durations, as Juju's --timeout takes them: `10m`, `1m30s`, `500ms`, `2h`; null when not one, or not above 0. */
export function parseDuration(text: string): number | null {
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (!parts.length || parts.map((p) => p[0]).join("") !== text) return null;
  const ms = parts.reduce((total, [, amount, unit]) => total + Number(amount) * UNITS[unit!]!, 0);
  return ms > 0 ? ms : null;
}

export function formatDuration(ms: number): string {
  if (ms % 60_000 === 0 && ms >= 60_000) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
