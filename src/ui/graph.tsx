// Applications as nodes and relations as edges, in an SVG: nodes on a circle (a grid past a few dozen), an edge per
// relation between its applications' nodes, dashed when container-scoped, a loop for a peer relation.
import type { ApplicationInfo, Held, RelationInfo } from "./model-state.js";
import { lifeClass } from "./status-class.js";

interface Props {
  applications: Held<ApplicationInfo>[];
  relations: Held<RelationInfo>[];
  /** Units held per application (an application's own unitCount is not in every change of it). */
  unitCounts: Map<string, number>;
}

const WIDTH = 640;
const HEIGHT = 320;
const NODE_W = 120;
const NODE_H = 40;

function layout(names: string[]): Map<string, { x: number; y: number }> {
  const at = new Map<string, { x: number; y: number }>();
  if (names.length <= 12) {
    const r = Math.min(WIDTH, HEIGHT) / 2 - NODE_H;
    names.forEach((name, i) => {
      const angle = (2 * Math.PI * i) / Math.max(names.length, 1) - Math.PI / 2;
      at.set(name, {
        x: WIDTH / 2 + (names.length > 1 ? r * 1.6 * Math.cos(angle) : 0),
        y: HEIGHT / 2 + (names.length > 1 ? r * Math.sin(angle) : 0),
      });
    });
  } else {
    const columns = Math.ceil(Math.sqrt(names.length * 2));
    names.forEach((name, i) => {
      at.set(name, { x: 70 + (i % columns) * 140, y: 30 + Math.floor(i / columns) * 60 });
    });
  }
  return at;
}

export function RelationGraph({ applications, relations, unitCounts }: Props) {
  const names = applications.map((a) => a.id).sort();
  const at = layout(names);
  const rows = Math.ceil(names.length / Math.ceil(Math.sqrt(names.length * 2)));
  const height = names.length <= 12 ? HEIGHT : Math.max(HEIGHT, 60 + rows * 60);
  return (
    <svg
      class="graph"
      viewBox={`0 0 ${names.length <= 12 ? WIDTH : Math.max(WIDTH, 140 * Math.ceil(Math.sqrt(names.length * 2)))} ${height}`}
      role="img"
      aria-label="applications and relations"
    >
      {relations.map((relation) => {
        const ends = relation.info.endpoints?.map((e) => at.get(e.applicationName)).filter((p) => p !== undefined) ?? [];
        const container = relation.info.scope === "CONTAINER";
        const cls = `edge ${lifeClass(relation.life)}${container ? " container" : ""}`;
        const [a, b] = ends;
        if (!a) return null;
        const title = `${relation.info.key ?? relation.id} (${relation.info.interface ?? "?"}, ${container ? "container-scoped" : "global"})`;
        if (!b || (a.x === b.x && a.y === b.y))
          return (
            <g key={relation.id} data-relation={relation.info.key ?? relation.id} class={cls}>
              <title>{title}</title>
              <circle cx={a.x + NODE_W / 2} cy={a.y - NODE_H / 2} r={14} fill="none" />
            </g>
          );
        return (
          <g key={relation.id} data-relation={relation.info.key ?? relation.id} class={cls}>
            <title>{title}</title>
            <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} stroke-dasharray={container ? "6 4" : undefined} />
            <text x={(a.x + b.x) / 2} y={(a.y + b.y) / 2 - 4} class="edge-label">
              {relation.info.interface}
            </text>
          </g>
        );
      })}
      {applications.map((application) => {
        const p = at.get(application.id)!;
        return (
          <g
            key={application.id}
            data-application={application.id}
            class={`node ${lifeClass(application.life)}`}
            transform={`translate(${p.x - NODE_W / 2} ${p.y - NODE_H / 2})`}
          >
            <title>{`${application.id}: ${application.life?.toLowerCase()}, ${application.info.charmUrl ?? ""}`}</title>
            <rect width={NODE_W} height={NODE_H} rx={6} />
            <text x={NODE_W / 2} y={17} text-anchor="middle" class="node-name">
              {application.id}
            </text>
            <text x={NODE_W / 2} y={32} text-anchor="middle" class="node-detail">
              {`${unitCounts.get(application.id) ?? 0} unit${unitCounts.get(application.id) === 1 ? "" : "s"}${application.life === "ALIVE" ? "" : ` · ${application.life?.toLowerCase()}`}`}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
