import type { Analysis } from "@sightline/sdk";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { AlertTriangleIcon } from "lucide-react";
import { FigureHint, FigureName, type MetricId } from "../../components/figure-hint.tsx";
import { Spinner } from "../../components/page-states.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { Progress } from "../../components/ui/progress.tsx";
import { GLOSSARY } from "../../generated/glossary.ts";
import { SURFACE_TITLES } from "../../generated/labels.ts";
import { countryLabel } from "../../lib/countries.ts";
import { percent, points, position, proportion, sentimentScore } from "../../lib/figures.ts";
import { engineName, formatDateTime, formatNumber, formatUsd, plural } from "../../lib/format.ts";
import { personasQuery } from "../audiences/audiences-api.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { reportsQuery } from "./analyses-api.ts";
import { AnalysisStatus, FailureSummary, TRIGGER_NAMES } from "./analysis-status.tsx";
import { ReportLinks } from "./reports-list.tsx";

function Figure({ id, value }: { id: MetricId; value: string }) {
  return (
    <div>
      <dt className="text-muted-foreground">
        <FigureName id={id} />
      </dt>
      <dd className="font-medium tabular-nums">{value}</dd>
    </div>
  );
}

function Summary({ analysis }: { analysis: Analysis }) {
  const { workspaceId, project } = useBrand();
  const reports = useQuery({ ...reportsQuery(workspaceId, project.id), enabled: analysis.status === "completed" });
  const report = reports.data?.data.find((r) => r.analysis_id === analysis.id);
  const summary = analysis.summary;
  if (!summary) return null;
  const o = summary.overall;
  return (
    <div className="grid gap-4">
      <dl className="grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
        <Figure id="visibility" value={proportion(o.visibility)} />
        <Figure id="share_of_voice" value={percent(o.share_of_voice)} />
        <Figure id="average_position" value={position(o.average_position)} />
        <Figure id="sentiment" value={sentimentScore(o.sentiment_score)} />
      </dl>
      {(summary.surfaces ?? []).length > 0 && <SurfaceComparison surfaces={summary.surfaces ?? []} />}
      <div className="flex flex-wrap items-center gap-3">
        <Link
          to="/w/$workspaceId/brands/$brandId/answers"
          params={{ workspaceId, brandId: project.id }}
          className="text-sm font-medium text-primary underline-offset-4 hover:underline"
        >
          Read the answers
        </Link>
        {report && <ReportLinks workspaceId={workspaceId} report={report} />}
      </div>
    </div>
  );
}

type Comparison = NonNullable<NonNullable<Analysis["summary"]>["surfaces"]>[number];

/** Each product asked on both surfaces: the brand's visibility through the API and as people see it. */
function SurfaceComparison({ surfaces }: { surfaces: Comparison[] }) {
  return (
    <section aria-labelledby="surfaces-heading" className="grid gap-2">
      <h3 id="surfaces-heading" className="text-sm font-semibold">
        {SURFACE_TITLES.api} vs {SURFACE_TITLES.web}
      </h3>
      <p className="text-sm text-muted-foreground">
        How often the brand is named when the product is asked through its API, and in what a person sees in the product
        itself. A difference is statistically real when chance would explain it less than 1 time in 20.
      </p>
      <div className="overflow-x-auto">
        <table className="w-full text-sm">
          <thead className="text-left text-muted-foreground">
            <tr>
              <th scope="col" className="py-1 pr-4 font-medium">
                Product
              </th>
              <th scope="col" className="py-1 pr-4 font-medium">
                {SURFACE_TITLES.api}
              </th>
              <th scope="col" className="py-1 pr-4 font-medium">
                {SURFACE_TITLES.web}
              </th>
              <th scope="col" className="py-1 pr-4 font-medium">
                Difference
              </th>
            </tr>
          </thead>
          <tbody>
            {surfaces.map((c) => (
              <tr key={c.web_engine} className="border-t">
                <th scope="row" className="py-1.5 pr-4 text-left font-medium">
                  {engineName(c.api_engine)} · {engineName(c.web_engine)}
                </th>
                <td className="py-1.5 pr-4 tabular-nums">{proportion(c.api)}</td>
                <td className="py-1.5 pr-4 tabular-nums">{proportion(c.web)}</td>
                <td className="py-1.5 pr-4 tabular-nums">
                  {points(c.difference)}{" "}
                  <span className={c.significant ? "font-medium" : "text-muted-foreground"}>
                    {c.p_value === null
                      ? ""
                      : c.significant
                        ? `statistically real (p ${c.p_value < 0.001 ? "< 0.001" : `= ${c.p_value.toFixed(3)}`})`
                        : `within chance (p = ${c.p_value.toFixed(2)})`}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Who the prompts were asked as and from where, and the conversations held (issue 29), when any. */
function Audience({ analysis }: { analysis: Analysis }) {
  const { workspaceId, project } = useBrand();
  const personas = useQuery({ ...personasQuery(workspaceId, project.id), enabled: analysis.personas.length > 0 });
  const names = analysis.personas.map(
    ({ id }) => personas.data?.data.find((p) => p.id === id)?.name ?? "a deleted persona",
  );
  const who = names.length > 0 ? `as ${names.join(", ")}` : "";
  const where = analysis.countries.length > 0 ? `from ${analysis.countries.map(countryLabel).join(", ")}` : "";
  if (who === "" && where === "" && analysis.conversations === 0) return null;
  return (
    <p className="text-sm text-muted-foreground">
      {(who || where) && `Each prompt asked ${[who, where].filter(Boolean).join(" ")}. `}
      {analysis.conversations > 0 && (
        <>
          {plural(analysis.conversations, "conversation")} held:{" "}
          <Link
            to="/w/$workspaceId/brands/$brandId/conversations"
            params={{ workspaceId, brandId: project.id }}
            className="font-medium text-primary underline underline-offset-4"
          >
            read them
          </Link>
          .
        </>
      )}
    </p>
  );
}

/** One analysis as it runs: read every second until it finishes, with its counts and any engine's failure. */
export function AnalysisProgress({ analysis }: { analysis: Analysis }) {
  const { progress } = analysis;
  const done = progress.succeeded + progress.failed;
  const finished = analysis.status === "completed" || analysis.status === "failed";
  const share = progress.total > 0 ? (done / progress.total) * 100 : 0;
  return (
    <Card aria-labelledby="analysis-title">
      <CardHeader>
        <div>
          <CardTitle id="analysis-title" className="flex flex-wrap items-center gap-2">
            Analysis of {formatDateTime(analysis.created_at)}{" "}
            <AnalysisStatus status={analysis.status} failed={progress.failed} />
          </CardTitle>
          <CardDescription>
            {plural(analysis.prompts.length, "prompt")} × {analysis.engines.map(engineName).join(", ")} ×{" "}
            {plural(analysis.samples, "sample")}, started from {TRIGGER_NAMES[analysis.trigger]}.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="grid gap-5">
        <Audience analysis={analysis} />
        <div className="grid gap-2">
          <Progress
            value={share}
            aria-label="Answers received"
            aria-valuetext={`${done} of ${progress.total} answers`}
          />
          <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm tabular-nums" aria-live="polite">
            {!finished && <Spinner className="text-muted-foreground" />}
            <span>
              <strong className="font-semibold">{done}</strong> of {plural(progress.total, "answer")}
            </span>
            <span className="text-success">{progress.succeeded} succeeded</span>
            <span className={progress.failed > 0 ? "text-destructive" : "text-muted-foreground"}>
              {progress.failed} failed
            </span>
            <span className="text-muted-foreground">{progress.pending} pending</span>
          </p>
          {analysis.batch && !finished && (
            <p className="text-xs text-muted-foreground">
              Sent through the vendors' batch APIs (about half the price): their answers arrive within 24 hours.
            </p>
          )}
          {analysis.cost.answers > 0 && (
            <p className="flex flex-wrap items-center gap-x-1 text-xs text-muted-foreground">
              <span>
                {GLOSSARY.cost.name}
                {finished ? "" : " so far"}: <span className="tabular-nums">{formatUsd(analysis.cost.total)}</span> (
                {formatNumber(analysis.cost.input_tokens + analysis.cost.output_tokens)} tokens,{" "}
                {plural(analysis.cost.search_calls, "search", "searches")}).
              </span>
              <FigureHint id="cost" />
            </p>
          )}
          {analysis.credits.released > 0 && (
            <p className="text-xs text-muted-foreground">
              {plural(analysis.credits.released, "credit")} of {analysis.credits.reserved} given back for answers that
              failed.
            </p>
          )}
        </div>
        {analysis.status === "completed" && (
          <FailureSummary failed={progress.failed} total={progress.total} errors={analysis.errors} />
        )}
        {analysis.status !== "completed" && analysis.errors.length > 0 && (
          <div role="alert" className="grid gap-2 rounded-md border border-destructive/30 bg-destructive/5 p-3 text-sm">
            <p className="flex items-center gap-2 font-medium text-destructive">
              <AlertTriangleIcon className="size-4" aria-hidden="true" />
              {analysis.errors.length === 1 ? "An engine failed" : `${analysis.errors.length} engines failed`}
            </p>
            <ul className="grid gap-1">
              {analysis.errors.map((error) => (
                <li key={error.engine}>
                  <strong className="font-medium">{engineName(error.engine)}</strong> ({plural(error.answers, "answer")}
                  ): {error.message}
                </li>
              ))}
            </ul>
          </div>
        )}
        {analysis.status === "failed" && (
          <p className="text-sm">Every answer failed, so nothing was measured. The credits were given back.</p>
        )}
        {analysis.status === "completed" && <Summary analysis={analysis} />}
      </CardContent>
    </Card>
  );
}
