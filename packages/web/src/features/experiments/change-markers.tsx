import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ReferenceLine } from "recharts";
import { formatDate } from "../../lib/format.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { changesQuery } from "./experiments-api.ts";

/** A change as the brand's time charts mark it. */
export interface ChangeMarker {
  id: string;
  title: string;
  changedAt: string;
}

/** The changes sharing one place on a chart's time axis. */
export interface PlacedMarkers {
  /** The x axis' category there (a bucket's label). */
  x: string;
  markers: ChangeMarker[];
}

const MARKER_COLOR = "#7c3aed";

/**
 * The brand's recorded changes, for the markers of its time charts: the Experiments list's own
 * query (so one request per brand serves every chart and the list). None while it loads, or if it
 * failed: a chart never waits for its markers.
 */
export function useChangeMarkers(): ChangeMarker[] {
  const { workspaceId, project } = useBrand();
  const changes = useQuery(changesQuery(workspaceId, project.id));
  return (changes.data?.data ?? []).map((c) => ({ id: c.id, title: c.title, changedAt: c.changed_at }));
}

/** The markers grouped by where they fall on the axis; `xOf` gives a moment's category, or null outside the chart. */
export function placeMarkers(markers: readonly ChangeMarker[], xOf: (iso: string) => string | null): PlacedMarkers[] {
  const placed = new Map<string, ChangeMarker[]>();
  for (const marker of [...markers].sort((a, b) => a.changedAt.localeCompare(b.changedAt))) {
    const x = xOf(marker.changedAt);
    if (x === null) continue;
    placed.set(x, [...(placed.get(x) ?? []), marker]);
  }
  return [...placed].map(([x, at]) => ({ x, markers: at }));
}

/** "Change: Rewrote the pricing page (20 Nov 2026)", or several joined. */
function markerTitle(markers: readonly ChangeMarker[]): string {
  const one = (m: ChangeMarker) => `${m.title} (${formatDate(m.changedAt)})`;
  return markers.length === 1 && markers[0] ? `Change: ${one(markers[0])}` : `Changes: ${markers.map(one).join("; ")}`;
}

interface LineShape {
  x1?: number;
  y1?: number;
  x2?: number;
  y2?: number;
}

/**
 * Vertical lines at the changes, drawn inside a Recharts chart (called as a function: the chart
 * reads its children). Each says its change's title on hover (an SVG title); the list under the
 * chart (`ChangeMarkersList`) gives the same to the keyboard and screen readers.
 */
export function markerLines(placed: readonly PlacedMarkers[], color = MARKER_COLOR) {
  return placed.map(({ x, markers }) => (
    <ReferenceLine
      key={`marker-${x}`}
      x={x}
      shape={({ x1, y1, x2, y2 }: LineShape) =>
        x1 === undefined || y1 === undefined || x2 === undefined || y2 === undefined ? (
          <g />
        ) : (
          <g className="change-marker" data-change-marker={markers.map((m) => m.id).join(" ")}>
            <title>{markerTitle(markers)}</title>
            <line x1={x1} y1={y1} x2={x2} y2={y2} stroke={color} strokeWidth={1.5} strokeDasharray="4 3" />
            {/* A wider, invisible line: something to hover. */}
            <line x1={x1} y1={y1} x2={x2} y2={y2} stroke="transparent" strokeWidth={12} />
            <path d={`M ${x1 - 5} ${Math.min(y1, y2)} h 10 l -5 6 z`} fill={color} stroke="none" />
          </g>
        )
      }
    />
  ));
}

/** The chart's changes in a sentence, for its screen-reader summary ("" without any). */
export function markersSentence(placed: readonly PlacedMarkers[]): string {
  const all = placed.flatMap((p) => p.markers);
  if (all.length === 0) return "";
  return ` Marked: ${all.map((m) => `${m.title} (${formatDate(m.changedAt)})`).join("; ")}.`;
}

/** Under a time chart: the changes it marks, each a link to its experiment. */
export function ChangeMarkersList({ placed }: { placed: readonly PlacedMarkers[] }) {
  const { workspaceId, project } = useBrand();
  const all = placed.flatMap((p) => p.markers);
  if (all.length === 0) return null;
  return (
    <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-xs">
      <span className="inline-flex items-center gap-1.5 text-muted-foreground">
        <svg width="10" height="12" viewBox="0 0 10 12" aria-hidden="true" focusable="false">
          <path d="M0 0 h10 l-5 6 z" fill={MARKER_COLOR} />
          <line x1="5" y1="6" x2="5" y2="12" stroke={MARKER_COLOR} strokeWidth="1.5" strokeDasharray="2 1.5" />
        </svg>
        {all.length === 1 ? "Change marked:" : "Changes marked:"}
      </span>
      <ul className="flex flex-wrap gap-x-3 gap-y-1" aria-label="Changes marked on the chart">
        {all.map((m) => (
          <li key={m.id} className="wrap-anywhere">
            <Link
              to="/w/$workspaceId/brands/$brandId/experiments/$changeId"
              params={{ workspaceId, brandId: project.id, changeId: m.id }}
              className="text-primary underline-offset-4 hover:underline focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              {m.title}
            </Link>{" "}
            <span className="text-muted-foreground">({formatDate(m.changedAt)})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * A moment's category on a time axis of buckets (each from its start to the next one's, the last
 * to `end`): the label of the bucket holding it, or null outside them all.
 */
export function bucketOf(buckets: readonly { start: string; label: string }[], end: string) {
  const ends = buckets.map((_, i) => Date.parse(buckets[i + 1]?.start ?? end));
  return (iso: string): string | null => {
    const at = Date.parse(iso);
    const index = buckets.findIndex((b, i) => Date.parse(b.start) <= at && at < (ends[i] ?? 0));
    return buckets[index]?.label ?? null;
  };
}
