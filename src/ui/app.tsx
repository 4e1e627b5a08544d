// The status page: a model picker, then the picked model as it changes, followed over one graphql-ws socket.
import { useEffect, useRef, useState } from "preact/hooks";
import { StatusPageHookHistoryDocument, StatusPageModelsDocument } from "../client/graphql.js";
import { type Held, readBlockers } from "./blockers.js";
import { query } from "./connection.js";
import { RelationGraph } from "./graph.js";
import { MachinesTable } from "./machines.js";
import { ModelState } from "./model-state.js";
import { BlockersPanel, FeedPanel, type HookRun, HooksPanel } from "./panels.js";
import { type Following, followModel, type Link } from "./stream.js";
import { UnitsList } from "./units.js";

/** Blockers are read this long after the last change to a Dying entity: a removal's burst of changes costs one read. */
const BLOCKERS_DEBOUNCE_MS = 300;

const initialModel = () => new URLSearchParams(location.search).get("model") || "default";

export function App() {
  const [model, setModel] = useState(initialModel);
  const [models, setModels] = useState<string[]>([]);
  const [link, setLink] = useState<{ state: Link; detail?: string }>({ state: "connecting" });
  const [, setVersion] = useState(0);
  const [held, setHeld] = useState<Held[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [runs, setRuns] = useState<HookRun[] | null>(null);
  const state = useRef(new ModelState());
  const following = useRef<Following | null>(null);
  const selectedRef = useRef<string | null>(null);
  /** Reads the selected unit's hook runs again: the model's effect sets it. */
  const reloadRuns = useRef<() => Promise<void>>(async () => {});
  selectedRef.current = selected;

  useEffect(() => {
    const current = new ModelState();
    state.current = current;
    setHeld([]);
    let frame = 0;
    let blockersTimer: ReturnType<typeof setTimeout> | undefined;
    let hooksTimer: ReturnType<typeof setTimeout> | undefined;
    let modelDying = false;
    // Drawn at most once a frame, however many events arrive in it.
    const redraw = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        setVersion(current.version);
      });
    };
    const refreshBlockers = () => {
      clearTimeout(blockersTimer);
      blockersTimer = setTimeout(async () => {
        const client = following.current?.client;
        if (client) setHeld(await readBlockers(client, model, current, modelDying));
      }, BLOCKERS_DEBOUNCE_MS);
    };
    const refreshHooks = () => {
      clearTimeout(hooksTimer);
      hooksTimer = setTimeout(() => void loadRuns(), BLOCKERS_DEBOUNCE_MS);
    };
    const loadRuns = async () => {
      const unit = selectedRef.current;
      const client = following.current?.client;
      if (!unit || !client) return;
      const data = await query(client, StatusPageHookHistoryDocument, { model, unit, first: 20 }).catch(() => null);
      if (selectedRef.current === unit) setRuns(data?.model?.hookHistory.edges.map((e) => e.node) ?? []);
    };
    following.current = followModel(model, {
      reset: () => current.reset(),
      event: (event) => {
        if (event.kind === "MODEL" && event.life) modelDying = event.life !== "ALIVE";
        if (current.apply(event)) refreshBlockers();
        if (event.kind === "HOOK" && event.entity === selectedRef.current) refreshHooks();
        redraw();
      },
      link: (state, detail) => {
        setLink({ state, ...(detail ? { detail } : {}) });
        if (state === "live") refreshBlockers();
      },
    });
    query(following.current.client, StatusPageModelsDocument, {})
      .then((data) => setModels(data.models.edges.map((e) => e.node.name)))
      .catch(() => {});
    reloadRuns.current = loadRuns;
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(blockersTimer);
      clearTimeout(hooksTimer);
      following.current?.stop();
      following.current = null;
    };
  }, [model]);

  useEffect(() => {
    setRuns(null);
    void reloadRuns.current();
  }, [selected, model]);

  const pick = (name: string) => {
    const url = new URL(location.href);
    url.searchParams.set("model", name);
    history.replaceState(null, "", url);
    setSelected(null);
    setModel(name);
  };

  const s = state.current;
  const applications = [...s.tables.application.values()];
  const units = [...s.tables.unit.values()];
  const unitsOn = new Map<string, number>();
  const unitCounts = new Map<string, number>();
  const count = (map: Map<string, number>, key: string | null | undefined) => key && map.set(key, (map.get(key) ?? 0) + 1);
  for (const unit of units) {
    count(unitsOn, unit.info.machineId);
    count(unitCounts, unit.info.applicationName);
  }
  return (
    <>
      <header>
        <h1>Lifeline</h1>
        <label>
          model{" "}
          <select value={model} onChange={(e) => pick((e.target as HTMLSelectElement).value)} aria-label="model">
            {(models.includes(model) ? models : [model, ...models]).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <span class={`link link-${link.state}`} data-link={link.state} title={link.detail ?? ""}>
          {link.state === "live" ? `live at r${s.revision}` : link.state}
          {link.detail && link.state !== "live" ? `: ${link.detail}` : ""}
        </span>
        {link.detail?.startsWith("UNAUTHENTICATED") ? <a href="/">log in again</a> : null}
        <nav>
          <a href="/graphql">GraphiQL</a>
        </nav>
      </header>
      {!s.synced ? <p class="muted loading">reading the model…</p> : null}
      <main>
        <section class="panel graph-panel">
          <h2>
            Applications and relations <span class="count">{applications.length}</span>
          </h2>
          <RelationGraph applications={applications} relations={[...s.tables.relation.values()]} unitCounts={unitCounts} />
          <p class="legend muted">solid: global relation · dashed: container-scoped · colour: life</p>
        </section>
        <UnitsList applications={applications} units={units} selected={selected} onSelect={setSelected} />
        <MachinesTable machines={[...s.tables.machine.values()]} unitsOn={unitsOn} />
        <BlockersPanel held={held} />
        <HooksPanel unit={selected} runs={runs} />
        <FeedPanel feed={s.feed} />
      </main>
    </>
  );
}
