// Calls between two threads of the process (the API's and its agents'): each side
// offers named functions, and the other calls them by name and gets a promise of the
// answer. Values cross as structured clones. A thrown error crosses as its name and
// message; a RangeError stays one, since the cloud API tells a caller's mistakes by it.
//
// Hand-written rather than Comlink: what crosses here is six named functions, and
// Comlink's Node adapter ships no types its .mjs entry resolves to under NodeNext.

/** A MessagePort, a Worker, or a worker's parentPort. */
export interface Endpoint {
  postMessage(message: unknown): void;
  on(event: "message", listener: (message: unknown) => void): unknown;
}

// biome-ignore lint/suspicious/noExplicitAny: any function's arguments, checked at each call by `Remote`'s types
export type Functions = Record<string, (...args: any[]) => unknown>;

type Message =
  | { call: number; name: string; args: unknown[] }
  | { tell: string; args: unknown[] }
  | { answer: number; value: unknown }
  | { answer: number; error: { name: string; message: string } };

export class ThreadCalls<Remote extends Functions> {
  private next = 0;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  /** Why the other side is gone, once it is: a call then fails at once, where it would wait for ever. */
  private gone: Error | null = null;

  constructor(
    private readonly endpoint: Endpoint,
    offered: Functions,
  ) {
    endpoint.on("message", (message) => {
      const m = message as Message;
      if ("tell" in m) void this.hear(m, offered);
      else if ("call" in m) void this.answer(m, offered);
      else if ("answer" in m) {
        const waiter = this.waiting.get(m.answer);
        this.waiting.delete(m.answer);
        if ("error" in m) waiter?.reject(asError(m.error));
        else waiter?.resolve(m.value);
      }
    });
  }

  /** Calls the other side's `name` with `args`; resolves with its answer, or rejects with its error. */
  call<K extends keyof Remote & string>(name: K, ...args: Parameters<Remote[K]>): Promise<Awaited<ReturnType<Remote[K]>>> {
    const call = this.next++;
    return new Promise((resolve, reject) => {
      if (this.gone) return reject(this.gone);
      this.waiting.set(call, { resolve: resolve as (value: unknown) => void, reject });
      this.endpoint.postMessage({ call, name, args } satisfies Message);
    });
  }

  /**
   * Calls the other side's `name` with `args` and wants no answer: one message, not two, and nothing waits. For what is
   * said often and cannot fail in a way the caller could act on (the agents' log lines). A failure there is lost.
   */
  tell<K extends keyof Remote & string>(name: K, ...args: Parameters<Remote[K]>): void {
    if (!this.gone) this.endpoint.postMessage({ tell: name, args } satisfies Message);
  }

  /** The other side has gone: fails every call still unanswered, and every call made from now on. */
  close(error: Error): void {
    this.gone ??= error;
    for (const { reject } of this.waiting.values()) reject(error);
    this.waiting.clear();
  }

  private async hear({ tell, args }: { tell: string; args: unknown[] }, offered: Functions): Promise<void> {
    try {
      await offered[tell]?.(...args);
    } catch {
      // Nobody waits for an answer to hear of it.
    }
  }

  private async answer({ call, name, args }: { call: number; name: string; args: unknown[] }, offered: Functions): Promise<void> {
    try {
      const f = offered[name];
      if (!f) throw new Error(`no function ${name} is offered here`);
      this.endpoint.postMessage({ answer: call, value: await f(...args) } satisfies Message);
    } catch (thrown) {
      const error = thrown instanceof Error ? thrown : new Error(String(thrown));
      this.endpoint.postMessage({ answer: call, error: { name: error.name, message: error.message } } satisfies Message);
    }
  }
}

function asError({ name, message }: { name: string; message: string }): Error {
  const error = name === "RangeError" ? new RangeError(message) : new Error(message);
  error.name = name;
  return error;
}
