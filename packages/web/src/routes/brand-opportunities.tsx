import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { CheckCheckIcon, LightbulbIcon } from "lucide-react";
import { useId, useState } from "react";
import { FigureHint } from "../components/figure-hint.tsx";
import { EmptyState, QueryState } from "../components/page-states.tsx";
import { SelectField } from "../components/select-field.tsx";
import { Badge } from "../components/ui/badge.tsx";
import { Button } from "../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader } from "../components/ui/card.tsx";
import { useBrand } from "../features/brand-page/brand-context.tsx";
import { RecordChangeDialog } from "../features/experiments/record-change-dialog.tsx";
import {
  KIND_LABEL,
  type Opportunity,
  type OpportunityKind,
  opportunitiesQuery,
} from "../features/opportunities/opportunities-api.ts";
import { GLOSSARY } from "../generated/glossary.ts";
import { percent, points, proportion } from "../lib/figures.ts";
import { engineName, formatDateTime } from "../lib/format.ts";
import { useTitle } from "../lib/use-title.ts";

const ALL = "all";

function OpportunityCard({ opportunity: o }: { opportunity: Opportunity }) {
  const { workspaceId, project, canEdit } = useBrand();
  const headingId = useId();
  return (
    <Card aria-labelledby={headingId}>
      <CardHeader>
        <div className="grid gap-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant="outline">{KIND_LABEL[o.kind]}</Badge>
            <span className="inline-flex flex-wrap items-center gap-x-1 text-xs text-muted-foreground">
              <span>
                {o.answers} {o.answers === 1 ? "answer" : "answers"} · {o.engines.map(engineName).join(", ")} ·
              </span>
              <span>
                {GLOSSARY.opportunity_impact.name} {percent(o.impact)}
              </span>
              <FigureHint id="opportunity_impact" />
            </span>
          </div>
          <h3 id={headingId} className="text-base leading-tight font-semibold wrap-anywhere">
            {o.title}
          </h3>
          <CardDescription>{o.explanation}</CardDescription>
        </div>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {o.change && (
          <p>
            Visibility {proportion(o.change.before)} before, {proportion(o.change.after)} in the latest analysis:{" "}
            <span className="font-medium">{points(o.change.difference)}</span>.
          </p>
        )}
        {o.fact && (
          <div className="grid gap-1">
            <p>
              Your fact sheet: <span className="font-medium">{o.fact.expected}</span>. The answer:{" "}
              <span className="font-medium">{o.fact.stated}</span>.
            </p>
            <blockquote className="border-l-2 pl-3 text-muted-foreground italic">{o.fact.excerpt}</blockquote>
          </div>
        )}
        {o.urls.length > 0 && (
          <div>
            <p className="text-muted-foreground">Most cited pages:</p>
            <ul className="list-disc pl-5">
              {o.urls.map((url) => (
                <li key={url} className="wrap-anywhere">
                  <a
                    href={url}
                    target="_blank"
                    rel="noopener noreferrer nofollow"
                    className="text-primary underline-offset-4 hover:underline"
                  >
                    {url}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        )}
        {o.prompts.length > 0 && (
          <p className="text-muted-foreground wrap-anywhere">
            {o.prompts.length === 1 ? "Prompt" : "Prompts"}: {o.prompts.map((p) => `“${p}”`).join(", ")}
          </p>
        )}
        {o.evidence.length === 0 && (o.kind === "crawler_blocked" || o.kind === "crawler_errors") ? (
          // A crawler's opportunity rests on the site and the logs, not on answers.
          <Link
            to="/w/$workspaceId/brands/$brandId/traffic"
            params={{ workspaceId, brandId: project.id }}
            hash="access-audit"
            className="w-fit text-primary underline-offset-4 hover:underline"
          >
            See the crawlers' access on the Traffic page
          </Link>
        ) : (
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className="text-muted-foreground">Evidence:</span>
            {o.evidence.map((id, i) => (
              <Link
                key={id}
                to="/w/$workspaceId/brands/$brandId/answers/$resultId"
                params={{ workspaceId, brandId: project.id, resultId: id }}
                className="text-primary underline-offset-4 hover:underline"
              >
                answer {i + 1}
              </Link>
            ))}
          </div>
        )}
        {canEdit && (
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 border-t pt-3">
            <RecordChangeDialog
              prefill={{ title: o.title, opportunityId: o.id }}
              trigger={
                <Button variant="outline" size="sm" aria-label={`I did this: ${o.title}`}>
                  <CheckCheckIcon aria-hidden="true" />I did this
                </Button>
              }
            />
            <span className="text-xs text-muted-foreground">
              Record what you did: an experiment measures whether it moved{" "}
              {o.prompts.length > 0 ? "these prompts" : "the answers"}.
            </span>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/** What to do next: the API's ranked opportunities, explained, each with links to its answers. */
export function BrandOpportunitiesPage() {
  const { workspaceId, project, canEdit } = useBrand();
  useTitle(`Opportunities · ${project.name}`);
  const [kind, setKind] = useState<OpportunityKind | typeof ALL>(ALL);
  const opportunities = useQuery(opportunitiesQuery(workspaceId, project.id));
  const all = opportunities.data?.data ?? [];
  const shown = kind === ALL ? all : all.filter((o) => o.kind === kind);
  const noFacts = Object.keys(project.facts ?? {}).length === 0;
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid gap-1">
          <h2 className="text-lg font-semibold">Opportunities</h2>
          <p className="text-sm text-muted-foreground">
            What to do next, the most valuable first, from the last 30 days of answers
            {opportunities.data
              ? ` (${opportunities.data.scanned} answers, computed ${formatDateTime(opportunities.data.computed_at)})`
              : ""}
            . Refreshed after every analysis.
          </p>
        </div>
        <SelectField
          label="Kind"
          triggerClassName="w-52"
          value={kind}
          onChange={setKind}
          options={[
            { value: ALL, label: "All kinds" },
            ...(Object.keys(KIND_LABEL) as OpportunityKind[]).map((k) => ({
              value: k,
              label: `${KIND_LABEL[k]} (${all.filter((o) => o.kind === k).length})`,
            })),
          ]}
        />
      </div>
      {noFacts && (
        <p className="rounded-md border bg-muted/40 p-3 text-sm">
          Answers are checked against the brand's fact sheet (founding year, headquarters, price, free plan, key
          features).{" "}
          {canEdit ? (
            <Link
              to="/w/$workspaceId/brands/$brandId/edit"
              params={{ workspaceId, brandId: project.id }}
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              Add the fact sheet
            </Link>
          ) : (
            "Ask a member to add it"
          )}{" "}
          to find answers that get them wrong.
        </p>
      )}
      <QueryState
        query={opportunities}
        loading="Finding opportunities…"
        error="The opportunities could not be loaded"
      />
      {opportunities.data && shown.length === 0 && (
        <EmptyState icon={<LightbulbIcon />} title={all.length === 0 ? "No opportunities yet" : "None of this kind"}>
          {all.length === 0
            ? "They appear once analyses have answers to learn from: a site cited where competitors are named and the brand is not, a real drop, an answer getting the brand's facts wrong."
            : "Choose another kind, or all of them."}
        </EmptyState>
      )}
      <ul className="grid gap-4" aria-label="Opportunities">
        {shown.map((o) => (
          <li key={o.id}>
            <OpportunityCard opportunity={o} />
          </li>
        ))}
      </ul>
    </div>
  );
}
