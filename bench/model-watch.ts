// A model as the benchmark watches it: one `changes` subscription over a real
// graphql-ws socket, applied to a view of every entity (the stream's first
// events are the model's state, then every change in order). Phases end when a
// condition over that view holds; the view is re-checked on a short timer once
// it has changed, and the phase is dated by the last event that changed it, so
// the time is the stream's, not the timer's. Every wait has a deadline.
//
// The watch shares the machine with the server it measures, so its checks must
// stay cheap: at 10,000 units, conditions that walked every entity ten times a
// second took a third of a core from the server while it settled.
import { type Client, createClient } from "graphql-ws";
import WebSocket from "ws";
import { ADMIN_TOKEN } from "./lifeline-process.js";

/** The fields the benchmark selects (CHANGES), of whichever kind: each entity has those of its own. */
export interface Info {
  status?: { current: string; message: string } | null;
  applicationName?: string | null;
  machineId?: string | null;
  agentStatus?: { current: string; message: string } | null;
  key?: string | null;
  endpoints?: { applicationName: string; name: string }[] | null;
  relationId?: number;
  unitName?: string;
  role?: string | null;
  version?: number | null;
  hook?: string | null;
  relation?: number | null;
  remoteUnit?: string | null;
  result?: string | null;
}

export interface Entity {
  kind: string;
  entity: string;
  life: string | null;
  /** The entity as the stream has told of it: the fields of every event's `changed`, the latest value of each. */
  info: Info;
}

/** The kinds the benchmark watches, each with the field its events give the entity in. */
const watched = {
  MACHINE: "machine",
  APPLICATION: "application",
  UNIT: "unit",
  RELATION: "relation",
  SCOPE: "scope",
  SETTINGS: "settings",
  HOOK: "hook",
} as const;

export type ChangeEvent = {
  type: "STATE" | "CHANGE" | "BOOKMARK";
  revision: string;
  kind: keyof typeof watched | null;
  entity: string | null;
  life: string | null;
  removed: boolean;
  changed: string[];
} & { [F in (typeof watched)[keyof typeof watched]]: Info | null };

const CHANGES = `subscription ($model: String!) {
  changes(model: $model, kinds: [MACHINE, APPLICATION, UNIT, RELATION, SCOPE, SETTINGS, HOOK]) {
    type revision kind entity life removed changed
    machine { id status { current message } }
    application { name }
    unit { name applicationName machineId agentStatus { current message } }
    relation { id key endpoints { applicationName name } }
    scope { relationId unitName role }
    settings { relationId unitName version }
    hook { unitName hook relation remoteUnit result }
  }
}`;

export class ModelWatch {
  /** kind → entity → what the stream has told of it. */
  private readonly entities = new Map<string, Map<string, Entity>>();
  private readonly listeners: ((event: ChangeEvent) => void)[] = [];
  private failure: Error | null = null;
  private synced = false;
  private onSynced: (() => void) | null = null;
  /** performance.now() of the last event that changed the view. */
  lastChangeAt = 0;
  /** CHANGE events received. */
  changes = 0;
  /** Events that changed the view: a condition over the view need not be checked again until this moves. */
  private version = 0;

  private constructor(private readonly client: Client) {}

  /** Subscribes to `model`'s changes; resolves once its snapshot has arrived. */
  static async open(url: string, model: string, timeoutMs = 60_000): Promise<ModelWatch> {
    const client = createClient({
      url: url.replace(/^http/, "ws"),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const watch = new ModelWatch(client);
    const synced = new Promise<void>((resolve) => (watch.onSynced = resolve));
    client.subscribe<{ changes: ChangeEvent }>(
      { query: CHANGES, variables: { model } },
      {
        next: (result) => {
          if (result.errors) watch.failure = new Error(`the model's stream failed: ${JSON.stringify(result.errors)}`);
          else watch.apply(result.data!.changes);
        },
        error: (error) => {
          watch.failure = error instanceof Error ? error : new Error(`the model's stream failed: ${JSON.stringify(error)}`);
        },
        complete: () => {
          watch.failure ??= new Error("the model's stream completed");
        },
      },
    );
    const deadline = performance.now() + timeoutMs;
    await watch.until(
      () => (watch.synced ? null : "the stream's snapshot"),
      deadline,
      () => synced,
    );
    return watch;
  }

  /** Called with every event, after the view has taken it in. */
  listen(listener: (event: ChangeEvent) => void): void {
    this.listeners.push(listener);
  }

  get(kind: string, entity: string): Entity | undefined {
    return this.entities.get(kind)?.get(entity);
  }

  all(kind: string): Entity[] {
    return [...(this.entities.get(kind)?.values() ?? [])];
  }

  /** How many entities of `kind` the view holds. */
  count(kind: string): number {
    return this.entities.get(kind)?.size ?? 0;
  }

  private apply(event: ChangeEvent): void {
    if (event.type === "BOOKMARK") {
      if (!this.synced) {
        this.synced = true;
        this.version++;
        this.onSynced?.();
      }
      return;
    }
    if (!event.kind || !event.entity) return;
    let ofKind = this.entities.get(event.kind);
    if (!ofKind) {
      ofKind = new Map();
      this.entities.set(event.kind, ofKind);
    }
    if (event.removed) ofKind.delete(event.entity);
    else {
      const before = ofKind.get(event.entity);
      const given = event[watched[event.kind]] ?? {};
      ofKind.set(event.entity, {
        kind: event.kind,
        entity: event.entity,
        life: event.life ?? before?.life ?? null,
        info: { ...before?.info, ...Object.fromEntries(event.changed.filter((f) => f in given).map((f) => [f, Reflect.get(given, f)])) },
      });
    }
    if (event.type === "CHANGE") this.changes++;
    this.version++;
    this.lastChangeAt = performance.now();
    for (const listener of this.listeners) listener(event);
  }

  /**
   * Waits until `missing()` returns null (nothing missing); resolves with the time of the last change by then. It is
   * asked again on `wake` (100 ms by default) if the view has changed, and every second anyway (for a condition on the
   * clock).
   * At the deadline resolves with what was still missing, asked for in full (`missing(true)`): a condition may stop at
   * its first gap otherwise.
   */
  async until(
    missing: (full: boolean) => string | null,
    deadline: number,
    wake: () => Promise<void> = () => new Promise((r) => setTimeout(r, 100)),
  ): Promise<{ at: number } | { missing: string }> {
    let seen = -1;
    let askedAt = 0;
    for (;;) {
      if (this.failure) throw this.failure;
      const now = performance.now();
      if (now > deadline) {
        const gap = missing(true);
        return gap === null ? { at: this.lastChangeAt } : { missing: gap };
      }
      if (this.version !== seen || now - askedAt >= 1000) {
        seen = this.version;
        askedAt = now;
        if (missing(false) === null) return { at: this.lastChangeAt };
      }
      await Promise.race([wake(), new Promise((r) => setTimeout(r, Math.max(0, Math.min(100, deadline - performance.now()))))]);
    }
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }
}
