import type { ChangeFeed } from "../changes/feed.js";
import type { Actor, Database } from "../model/index.js";
import type { DummyDescription } from "../provider/dummy.js";
import type { Instance } from "../provider/provider.js";

/** What every resolver sees: the store and who is asking. Dataloaders hang off this object per request. */
export interface Context {
  db: Database;
  /** Who the request's credentials stand for; null without (valid) credentials. */
  actor: Actor | null;
  /**
   * The agents a request stands for, item by item, when it carries several agents' tokens (`extensions.authorizations`:
   * the calls of agents hosted in one process, gathered into one bulk call); null for an item whose token does not work.
   * A bulk field that takes them checks each item against its own agent (builder.ts: machineAgents).
   */
  agents?: readonly (Actor | null)[];
  /** This process's change feed; absent where no server runs one (subscriptions then refuse). */
  feed?: ChangeFeed;
  /** The cloud this process's agents provision on, for the admin's fault injection; absent without agents. */
  provider?: CloudControl;
}

/** The admin's handle on the dummy cloud: the provider itself, or calls to it on the agents' thread (answered later). */
export interface CloudControl {
  describe(): DummyDescription | Promise<DummyDescription>;
  failNextStarts(count: number, message?: string): unknown;
  refuseConstraints(text: string | null): unknown;
  loseInstance(id: string): Instance | Promise<Instance>;
}
