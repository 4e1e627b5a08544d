// Who is calling: bearer credentials and the actors they stand for. People hold
// tokens with a role; every machine and unit agent has its own identity, whose
// secret its provisioner (for a machine) or deployer (for a unit) issues and
// hands over, as in Juju. Tokens are stored only as hashes.
import { and, eq, gt, isNull, ne, or, sql } from "drizzle-orm";
import { LifelineError, notFound } from "../core/errors.js";
import { Life } from "../core/life.js";
import { UnitAgentStatus } from "../core/machine.js";
import type { Database } from "../db/connect.js";
import { readTogether } from "../db/read-together.js";
import { credentials, machines, models, units } from "../db/schema.js";
import { statement } from "../db/statement.js";
import { forgetAgentTokens, forgetPerson, remember, remembered } from "./authentications.js";
import { entity, touching, unitAlone } from "./footprint.js";
import { getUnits, machineOperation, machinesOperation, unitOperationReading } from "./lookup.js";
import { checkModelName } from "./names.js";
import type { MachineRow, ModelRow, UnitRow } from "./rows.js";
import { hash, newToken } from "./secrets.js";
import { defaultSessionLifetimes, noteUse, type SessionLifetimes, workingUntil } from "./sessions.js";
import { type UnitAgentStartup, unitAgentStartupsOf } from "./unit-agent-reads.js";
import { charmHooksOf, charmHooksRead } from "./unit-charms.js";
import { type InModel, modelOperationReading, type Tx, transact } from "./write/index.js";

export type PersonRole = "admin" | "operator" | "read-only";

/** Who a request comes from. */
export type Actor =
  // A person's token reaches the models it names, or every model (null).
  | { kind: "person"; id: number; role: PersonRole; description: string; models: readonly string[] | null }
  // An agent's model by id and by name, both read with its credentials: checks compare names without a query.
  | { kind: "machine"; modelId: string; model: string; machine: string }
  | { kind: "unit"; modelId: string; model: string; unit: string };

/** Juju's tags name an agent in logs and messages: "machine-1", "machine-1-lxd-0", "unit-wordpress-0". */
export const agentTag = (actor: Actor) =>
  actor.kind === "machine"
    ? `machine-${actor.machine.replaceAll("/", "-")}`
    : actor.kind === "unit"
      ? `unit-${actor.unit.replace("/", "-")}`
      : `person-${actor.id}`;

/** Tokens' credentials, with the life of each agent's entity: one statement for the tokens of requests that arrive together. */
const credentialsOfTokens = statement(["tokenHashes"], (db, p) =>
  db
    .select({ row: credentials, modelName: models.name, unitLife: units.life, machineLife: machines.life })
    .from(credentials)
    .leftJoin(models, eq(models.id, credentials.modelId))
    .leftJoin(units, and(eq(credentials.kind, "unit"), eq(units.modelId, credentials.modelId), eq(units.name, credentials.entity)))
    .leftJoin(
      machines,
      and(eq(credentials.kind, "machine"), eq(machines.modelId, credentials.modelId), eq(machines.id, credentials.entity)),
    )
    .where(sql`${credentials.tokenHash} = any(${p.tokenHashes}::text[])`),
);

type Found = Awaited<ReturnType<typeof credentialsOfTokens>>[number];

/** A token's credentials, read with those of the other requests of the same turn (read-together.ts). */
const credentialsOfToken = readTogether<string, Found>(async (db, tokenHashes) => {
  const rows = new Map((await credentialsOfTokens(db, { tokenHashes })).map((found) => [found.row.tokenHash, found]));
  return tokenHashes.map((tokenHash) => rows.get(tokenHash) ?? null);
});

/**
 * The actor a bearer token stands for, or null when it is unknown, revoked, expired (a session: unused too long, or
 * too old), or its agent's entity is Dead or gone. Answers are remembered for a moment (authentications.ts). Time is
 * the server's clock, `now`, which tests move.
 */
export async function authenticate(
  db: Database,
  token: string,
  sessions: SessionLifetimes = defaultSessionLifetimes,
  now = Date.now(),
): Promise<Actor | null> {
  if (!token || token.length > 200) return null;
  const tokenHash = hash(token);
  const known = remembered<Actor>(db, tokenHash, now);
  if (known) return known;
  const found = await credentialsOfToken(db, tokenHash);
  const until = found && workingUntil(found.row, sessions);
  const actor = found && !(until && until.getTime() <= now) ? actorOf(found) : null;
  if (!actor) return null;
  remember(db, tokenHash, actor, until ?? null, now);
  if (actor.kind === "person") noteUse(db, found!.row, sessions, now);
  return actor;
}

function actorOf(found: {
  row: typeof credentials.$inferSelect;
  modelName: string | null;
  machineLife: Life | null;
  unitLife: Life | null;
}): Actor | null {
  const { row } = found;
  if (row.kind === "person")
    return { kind: "person", id: row.id, role: row.role ?? "read-only", description: row.description, models: row.models };
  if (row.kind === "login" || !row.modelId || !row.entity || !found.modelName) return null;
  // An agent's credentials stop working once its entity is Dead.
  const life = row.kind === "machine" ? found.machineLife : found.unitLife;
  if (!life || life === Life.Dead) return null;
  return row.kind === "machine"
    ? { kind: "machine", modelId: row.modelId, model: found.modelName, machine: row.entity }
    : { kind: "unit", modelId: row.modelId, model: found.modelName, unit: row.entity };
}

/** The environment's admin tokens: LIFELINE_ADMIN_TOKEN's, and one made so before tokens kept their source. */
const environmentTokens = and(
  eq(credentials.kind, "person"),
  or(eq(credentials.source, "environment"), and(isNull(credentials.source), eq(credentials.description, "LIFELINE_ADMIN_TOKEN"))),
);

/**
 * Makes `token` the environment's admin token (LIFELINE_ADMIN_TOKEN), the only one: a token the environment named
 * before is revoked, so rotating it ends the old one. With none (null), the environment has no token any more.
 * Idempotent.
 */
export async function ensureAdminToken(db: Database, token: string | null): Promise<void> {
  if (token !== null && token.length < 16) throw new LifelineError("INVALID_ARGUMENT", "an admin token needs at least 16 characters");
  const revoked = await transact(db, async (tx) => {
    const others = token === null ? environmentTokens : and(environmentTokens, ne(credentials.tokenHash, hash(token)));
    const gone = await tx.db.delete(credentials).where(others).returning({ id: credentials.id });
    if (token !== null)
      await tx.db
        .insert(credentials)
        .values({ tokenHash: hash(token), kind: "person", role: "admin", description: "LIFELINE_ADMIN_TOKEN", source: "environment" })
        .onConflictDoUpdate({
          target: credentials.tokenHash,
          set: { kind: "person", role: "admin", expiresAt: null, models: null, source: "environment" },
        });
    return gone;
  });
  for (const { id } of revoked) forgetPerson(db, id);
}

/**
 * On a store with no lasting admin token yet (a browser's session is none: it ends), makes one and returns it (to be
 * printed once); null otherwise. A store whose only admin token was the environment's, no longer named, gets one so.
 */
export async function bootstrapAdmin(db: Database): Promise<string | null> {
  return transact(db, async (tx) => {
    // One bootstrap at a time: concurrent first starts must not both create one.
    await tx.db.execute(sql`select pg_advisory_xact_lock(hashtext('lifeline_admin_bootstrap'))`);
    const [admin] = await tx.db
      .select({ id: credentials.id })
      .from(credentials)
      .where(
        and(
          eq(credentials.kind, "person"),
          eq(credentials.role, "admin"),
          isNull(credentials.expiresAt),
          or(isNull(credentials.source), ne(credentials.source, "session")),
        ),
      )
      .limit(1);
    if (admin) return null;
    const token = newToken("llt");
    await tx.db
      .insert(credentials)
      .values({ tokenHash: hash(token), kind: "person", role: "admin", description: "first admin", source: "bootstrap" });
    return token;
  });
}

export interface IssueTokenInput {
  role: PersonRole;
  description: string;
  /** The models the token reaches, by name; every model when absent. An admin's reaches every model. */
  models?: readonly string[] | null;
}

/** How many models one token may name (a token for more is a token for every model). */
export const MAX_TOKEN_MODELS = 100;

/** A token's models: named validly, each once, and never for an admin (whose tokens and cloud span every model). */
function tokenModels(input: IssueTokenInput): string[] | null {
  if (input.models == null) return null;
  if (input.role === "admin")
    throw new LifelineError(
      "INVALID_ARGUMENT",
      "an admin token reaches every model: issue an operator or read-only token for some models",
      {
        field: "models",
      },
    );
  if (input.models.length === 0 || input.models.length > MAX_TOKEN_MODELS)
    throw new LifelineError(
      "INVALID_ARGUMENT",
      `name at least one model and at most ${MAX_TOKEN_MODELS}, or leave models out for every model`,
      {
        field: "models",
      },
    );
  return [...new Set(input.models.map(checkModelName))];
}

export interface IssuedToken {
  id: number;
  /** Shown once: only its hash is kept. */
  token: string;
}

/** An admin issues a token for a person or a script. */
export async function issueToken(db: Database, input: IssueTokenInput): Promise<IssuedToken> {
  const models = tokenModels(input);
  const token = newToken("llt");
  const [row] = await db
    .insert(credentials)
    .values({
      tokenHash: hash(token),
      kind: "person",
      role: input.role,
      description: input.description.slice(0, 200),
      models,
      source: "issued",
    })
    .returning({ id: credentials.id });
  return { id: row!.id, token };
}

/** Revokes a person's token at once (an agent's are rotated by issuing new ones, and end with its entity). */
export async function revokeToken(db: Database, input: { id: number }): Promise<boolean> {
  const removed = await db
    .delete(credentials)
    .where(and(eq(credentials.id, input.id), eq(credentials.kind, "person")))
    .returning({ id: credentials.id });
  forgetPerson(db, input.id);
  if (!removed.length) throw notFound("token", String(input.id));
  return true;
}

/** People's tokens that have not expired (never the tokens themselves), browsers' sessions among them, oldest first. */
export const personTokens = (db: Database, now = Date.now()) =>
  db
    .select({
      id: credentials.id,
      role: credentials.role,
      description: credentials.description,
      models: credentials.models,
      source: credentials.source,
      createdAt: credentials.createdAt,
      expiresAt: credentials.expiresAt,
      lastUsedAt: credentials.lastUsedAt,
    })
    .from(credentials)
    .where(and(eq(credentials.kind, "person"), or(isNull(credentials.expiresAt), gt(credentials.expiresAt, new Date(now)))))
    .orderBy(credentials.id);

/** Agents' credentials by entity: their old secrets, or those of entities whose rows are being deleted. */
const deleteAgentsCredentials = statement(["modelId", "kind", "entities"], (db, p) =>
  db
    .delete(credentials)
    .where(and(eq(credentials.modelId, p.modelId), eq(credentials.kind, p.kind), sql`${credentials.entity} = any(${p.entities}::text[])`)),
);

/**
 * New secrets for agents, one statement however many (a prepared one: rows given as values would make a statement of
 * each count). Drizzle names every column of the table in an INSERT ... SELECT, so the select gives each, in the
 * table's order, as an insert of one row would leave them.
 */
const insertAgentSecrets = statement(["modelId", "kind", "tokenHashes", "entities", "descriptions"], (db, p) =>
  db.insert(credentials).select(
    sql`select nextval(pg_get_serial_sequence('credentials', 'id')), s.token_hash, ${p.kind}::text, null, ${p.modelId}::uuid,
      s.entity, s.description, now(), null::timestamptz, null::text[], null, null::timestamptz
      from unnest(${p.tokenHashes}::text[], ${p.entities}::text[], ${p.descriptions}::text[]) as s(token_hash, entity, description)`,
  ),
);

/**
 * Replaces agents' secrets: the ones issued before stop working. The old secrets' delete and the new ones' insert, a
 * statement each however many agents, go with the commit: nothing waits for their answers.
 */
function rotateAgentSecrets(tx: Tx, model: ModelRow, kind: "machine" | "unit", entities: readonly string[]): string[] {
  forgetAgents(tx, model, kind, entities);
  const tokens = entities.map(() => newToken(kind === "machine" ? "llm" : "llu"));
  tx.defer(
    insertAgentSecrets(tx.db, {
      modelId: model.id,
      kind,
      tokenHashes: tokens.map(hash),
      entities,
      descriptions: entities.map((entity) => `${kind} ${entity}`),
    }),
  );
  return tokens;
}

/** Entities' rows are being deleted, or their secrets replaced: their agents' credentials go (sent with the next statement). */
export function forgetAgents(tx: Tx, model: ModelRow, kind: "machine" | "unit", entities: readonly string[]): void {
  tx.defer(deleteAgentsCredentials(tx.db, { modelId: model.id, kind, entities }));
  for (const entity of entities) tx.afterCommit((db) => forgetAgentTokens(db, model.id, kind, entity));
}

export function forgetAgent(tx: Tx, model: ModelRow, kind: "machine" | "unit", entity: string): void {
  forgetAgents(tx, model, kind, [entity]);
}

export interface AgentCredentials {
  /** Juju's tag for the agent, for logs. */
  tag: string;
  /** The agent's bearer token; shown once. */
  token: string;
}

function refuseDead(kind: string, id: string, life: string) {
  if (life === Life.Dead) throw new LifelineError("NOT_ALIVE", `${kind} ${id} is dead: its agent will not run again`, { kind, id, life });
}

export interface MachineCredentialsInput extends InModel {
  machine: string;
}

/** Fresh secrets for machines' agents; refused, all of them, if one is Dead. */
function machinesCredentials(tx: Tx, model: ModelRow, machines: readonly MachineRow[]): AgentCredentials[] {
  for (const machine of machines) refuseDead("machine", machine.id, machine.life);
  const tokens = rotateAgentSecrets(
    tx,
    model,
    "machine",
    machines.map((m) => m.id),
  );
  return machines.map((machine, i) => ({
    tag: agentTag({ kind: "machine", modelId: model.id, model: model.name, machine: machine.id }),
    token: tokens[i]!,
  }));
}

/** The provisioner's act before it starts an instance: a fresh secret for the machine's agent. */
export const issueMachineCredentials = machineOperation(
  "any",
  async (tx, model, machine, _: MachineCredentialsInput) => machinesCredentials(tx, model, [machine])[0]!,
);

export interface MachinesCredentialsInput extends InModel {
  machines: readonly string[];
}

/** issueMachineCredentials for several machines in one transaction (Juju's SetPasswords is bulk): all or nothing. */
export const issueMachinesCredentials = machinesOperation(
  "any",
  (input: MachinesCredentialsInput) => input.machines,
  async (tx, model, machines) => machinesCredentials(tx, model, machines),
);

export interface UnitCredentialsInput extends InModel {
  unit: string;
}

/** A unit agent's credentials, with what it starts from. */
export interface UnitAgentCredentials extends AgentCredentials {
  startup: UnitAgentStartup & { allocating: boolean };
}

/**
 * The deployer's act before it starts a unit's agent: a fresh secret for it, and what the agent starts from (its state
 * document, the scopes it is in, whether it has reported yet, its charm), read with the model's lock in the same round
 * trip as the unit. The deployer starts the agent with both, so a thousand agents starting do not each ask for their
 * state again: that read was a request, a snapshot and a round trip a level, and about a quarter of the server's work a
 * unit settling. Whoever holds the new secret acts as the unit anyway, so handing its state along reaches no further. It
 * touches that unit's alone.
 */
export const issueUnitCredentials = unitOperationReading(
  "any",
  async (tx, model, input: UnitCredentialsInput) => (await unitAgentStartupsOf(tx.db, model.id, [input.unit]))[0]!,
  async (tx, model, unit, _, startup): Promise<UnitAgentCredentials> => unitsCredentials(tx, model, [unit], [startup])[0]!,
  undefined,
  unitAlone,
);

export interface UnitsCredentialsInput extends InModel {
  units: readonly string[];
}

/**
 * issueUnitCredentials for several units in one transaction, in the order named: all or nothing, the first refusal in
 * that order refusing the call. Their deployers' calls gathered into one (src/agents/gathered-calls.ts): the units,
 * their start-up reads and their secrets take a statement each however many units.
 */
export const issueUnitsCredentials = modelOperationReading(
  "any",
  (tx, model, input: UnitsCredentialsInput) =>
    Promise.all([getUnits(tx, model, input.units), unitAgentStartupsOf(tx.db, model.id, input.units)] as const),
  async (tx, model, _: UnitsCredentialsInput, [rows, startups]) => unitsCredentials(tx, model, rows, startups),
  (input) => touching(...input.units.map((unit) => [entity.unit(unit), "write"] as const)),
);

/** Each unit's agent's credentials and start-up; refused for a Dead unit. Their secrets are written in one statement. */
function unitsCredentials(
  tx: Tx,
  model: ModelRow,
  rows: readonly UnitRow[],
  startups: readonly UnitAgentStartup[],
): UnitAgentCredentials[] {
  for (const unit of rows) refuseDead("unit", unit.name, unit.life);
  const tokens = rotateAgentSecrets(
    tx,
    model,
    "unit",
    rows.map((unit) => unit.name),
  );
  return rows.map((unit, i) => {
    const startup = startups[i]!;
    // Its agent's hook calls, which come next, then need not read the charm again (unit-charms.ts).
    if (startup.charm && !charmHooksOf(unit)) charmHooksRead(unit, startup.charm);
    return {
      tag: agentTag({ kind: "unit", modelId: model.id, model: model.name, unit: unit.name }),
      token: tokens[i]!,
      startup: { ...startup, allocating: unit.agentStatus === UnitAgentStatus.Allocating },
    };
  });
}
