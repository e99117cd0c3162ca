import type { Project } from "@sightline/sdk";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ChevronRightIcon, GlobeIcon } from "lucide-react";
import { Spinner } from "../../components/page-states.tsx";
import { percent, proportion } from "../../lib/figures.ts";
import { plural } from "../../lib/format.ts";
import type { Period } from "../../lib/period.ts";
import { metricsQuery } from "../analytics/analytics-api.ts";
import { Sparkline } from "../charts/sparkline.tsx";
import { DeleteBrand } from "./delete-brand.tsx";

/** One brand with its last 30 days: visibility (interval, n), its daily trend and its share of voice. */
export function BrandRow({ workspaceId, project, period }: { workspaceId: string; project: Project; period: Period }) {
  const metrics = useQuery(metricsQuery(workspaceId, project.id, period));
  const figures = metrics.data?.total.overall.figures;
  const trend = metrics.data?.series.map((bucket) =>
    bucket.overall.counts.answers > 0 ? bucket.overall.figures.visibility.value : null,
  );
  const answered = (figures?.visibility.n ?? 0) > 0;

  return (
    <li className="grid gap-3 py-4 first:pt-0 last:pb-0 md:grid-cols-[minmax(0,1.3fr)_minmax(0,1.2fr)_auto_minmax(0,0.8fr)_auto] md:items-center md:gap-5">
      <div className="min-w-0">
        <Link
          to="/w/$workspaceId/brands/$brandId"
          params={{ workspaceId, brandId: project.id }}
          className="block truncate font-medium text-primary underline-offset-4 hover:underline focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          {project.name}
        </Link>
        <p className="flex items-center gap-1 text-sm text-muted-foreground">
          <GlobeIcon className="size-3.5 shrink-0" aria-hidden="true" />
          <span className="truncate">{project.primary_domain}</span>
        </p>
        <p className="text-xs text-muted-foreground">
          {plural(project.prompts.length, "prompt")} · {plural(project.competitors.length, "competitor")}
        </p>
      </div>
      {metrics.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground md:col-span-3">
          <Spinner /> Loading figures…
        </p>
      ) : metrics.isError ? (
        <p className="text-sm text-muted-foreground md:col-span-3">Figures unavailable right now.</p>
      ) : (
        <>
          <div className="text-sm">
            <span className="block text-xs text-muted-foreground">Visibility, last 30 days</span>
            {answered && figures ? (
              <span className="tabular-nums">
                <span className="text-lg font-semibold">{percent(figures.visibility.value)}</span>{" "}
                <span className="text-muted-foreground">{proportion(figures.visibility).replace(/^[^(]*/, "")}</span>
              </span>
            ) : (
              <span className="text-muted-foreground">No answers yet (n = 0)</span>
            )}
          </div>
          <div className="flex items-center gap-2">
            <Sparkline values={trend ?? []} max={1} />
            <span className="sr-only">
              Daily visibility over the last 30 days:{" "}
              {trend?.filter((v) => v !== null).length
                ? `from ${percent(trend.find((v) => v !== null) ?? null)} to ${percent(trend.findLast((v) => v !== null) ?? null)}`
                : "no answers"}
            </span>
          </div>
          <div className="text-sm">
            <span className="block text-xs text-muted-foreground">Share of voice, last 30 days</span>
            <span className="font-semibold tabular-nums">{answered ? percent(figures?.share_of_voice) : "–"}</span>
          </div>
        </>
      )}
      <div className="flex items-center gap-1 md:justify-end">
        <DeleteBrand project={project} look="icon" />
        <ChevronRightIcon className="hidden size-4 text-muted-foreground md:block" aria-hidden="true" />
      </div>
    </li>
  );
}
