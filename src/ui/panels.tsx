// The smaller panels: what holds each Dying entity, a unit's recent hook runs with their juju-log lines, and the
// model's change feed.
import type { StatusPageHookHistoryQuery } from "../client/graphql.js";
import type { Held } from "./blockers.js";
import type { FeedLine } from "./model-state.js";
import { statusClass } from "./status-class.js";

export function BlockersPanel({ held }: { held: Held[] }) {
  return (
    <section class="panel blockers">
      <h2>Dying, and what holds it</h2>
      {held.length === 0 ? <p class="muted">nothing is Dying</p> : null}
      <ul>
        {held.map((h) => (
          <li key={`${h.kind}:${h.id}`} data-held={`${h.kind}:${h.id}`}>
            <strong>
              {h.kind} {h.id}
            </strong>
            {h.blockers.length === 0 ? <span class="muted"> nothing holds it now: it goes soon</span> : null}
            <ul>
              {h.blockers.map((b) => (
                <li key={b.kind}>
                  <code>{b.kind}</code> {b.message}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}

export type HookRun = NonNullable<StatusPageHookHistoryQuery["model"]>["hookHistory"]["edges"][number]["node"];

export function HooksPanel({ unit, runs }: { unit: string | null; runs: HookRun[] | null }) {
  return (
    <section class="panel hooks">
      <h2>Hook runs {unit ? <span class="count">{unit}</span> : null}</h2>
      {!unit ? <p class="muted">select a unit to see its recent hook runs and log (kept after it is removed)</p> : null}
      {unit && runs && runs.length === 0 ? <p class="muted">no hook runs yet</p> : null}
      <ol class="runs">
        {(runs ?? []).map((run) => (
          <li key={run.id} class={statusClass(run.result)} data-hook={run.hook}>
            <div>
              <span class="dot" /> <strong>{run.hook}</strong> {run.result.toLowerCase()} <span class="muted">{time(run.startedAt)}</span>
              {run.message ? <span> — {run.message}</span> : null}
            </div>
            {run.log.length ? (
              <pre class="log">
                {run.log.map((line) => `${time(line.loggedAt)} ${line.level} ${line.message}`).join("\n")}
                {run.logLinesDropped ? `\n… ${run.logLinesDropped} more lines not kept` : ""}
              </pre>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

export function FeedPanel({ feed }: { feed: FeedLine[] }) {
  return (
    <section class="panel feed">
      <h2>Changes</h2>
      <ol class="feed-lines">
        {feed.map((line) => (
          <li key={line.revision + line.entity}>
            <span class="muted">r{line.revision}</span> <span class="kind">{line.kind}</span> <strong>{line.entity}</strong> {line.text}
          </li>
        ))}
      </ol>
    </section>
  );
}

const time = (iso: string) => new Date(iso).toLocaleTimeString();
