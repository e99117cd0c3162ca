import type { MonitoringRun } from "@sightline/sdk";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ErrorState, LoadingState } from "../../components/page-states.tsx";
import { points, proportion } from "../../lib/figures.ts";
import { formatDateTime } from "../../lib/format.ts";
import { AnalysisStatus, FailureSummary } from "../analyses/analysis-status.tsx";
import { SignificantMark } from "../analytics/significance.tsx";
import { useBrand } from "../brand-page/brand-context.tsx";
import { runsQuery } from "./monitoring-api.ts";

function RunItem({ run }: { run: MonitoringRun }) {
  const { workspaceId, project } = useBrand();
  const visibility = run.summary?.overall.visibility;
  const change = run.change?.visibility;
  return (
    <li className="grid gap-1 py-2.5 text-sm first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{formatDateTime(run.slot ?? run.created_at)}</span>
        <AnalysisStatus status={run.status} failed={run.failures?.failed ?? 0} />
        {run.slot === null && <span className="text-xs text-muted-foreground">run by hand</span>}
        {run.analysis_id && (
          <Link
            to="/w/$workspaceId/brands/$brandId/analyses/$analysisId"
            params={{ workspaceId, brandId: project.id, analysisId: run.analysis_id }}
            className="text-xs text-primary underline-offset-4 hover:underline"
          >
            Its analysis
          </Link>
        )}
      </div>
      {run.skip_reason && <p className="text-xs text-muted-foreground">Skipped: {run.skip_reason}</p>}
      {run.status === "completed" && run.failures && (
        <FailureSummary compact failed={run.failures.failed} total={run.failures.total} errors={run.failures.errors} />
      )}
      {visibility && (
        <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
          <span>Visibility {proportion(visibility)}</span>
          {change && change.delta !== null && (
            <>
              <span>{points(change.delta)} vs the previous run</span>
              <SignificantMark significant={change.significant} />
            </>
          )}
        </p>
      )}
    </li>
  );
}

/** A schedule's latest runs, newest first. */
export function RunsList({ scheduleId }: { scheduleId: string }) {
  const { workspaceId, project } = useBrand();
  const runs = useQuery(runsQuery(workspaceId, project.id, scheduleId));
  if (runs.isPending) return <LoadingState label="Loading runs…" />;
  if (runs.isError)
    return <ErrorState error={runs.error} title="The runs could not be loaded" onRetry={() => runs.refetch()} />;
  if (runs.data.data.length === 0) return <p className="text-sm text-muted-foreground">No runs yet.</p>;
  return (
    <ul className="divide-y">
      {runs.data.data.map((run) => (
        <RunItem key={run.id} run={run} />
      ))}
    </ul>
  );
}
