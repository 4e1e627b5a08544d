// A unit agent, with the credentials its deployer issued. For now it logs in
// and reports its agent status (`idle`); relation scopes, hooks and its unit's
// death are the next issue's (see the README's "Agents" section).
import { SetUnitAgentStatusDocument } from "../client/graphql.js";
import type { AgentConnection } from "./connection.js";

export interface UnitAgentCredentials {
  model: string;
  unit: string;
  tag: string;
  token: string;
}

export class UnitAgent {
  constructor(
    private readonly api: AgentConnection,
    readonly credentials: UnitAgentCredentials,
    private readonly log: (line: string) => void = () => {},
  ) {}

  async start(): Promise<void> {
    const { model, unit, token, tag } = this.credentials;
    await this.api.request(SetUnitAgentStatusDocument, { input: { model, unit, status: "IDLE" } }, token);
    this.log(`${tag}: started`);
  }

  stop(): void {}
}
