import type { Result } from "@sightline/sdk";
import { ExternalLinkIcon } from "lucide-react";
import type { ReactNode } from "react";
import { FigureName } from "../../components/figure-hint.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { position, score, sentimentWord } from "../../lib/figures.ts";
import { engineName, formatDateTime, plural } from "../../lib/format.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { AnswerText, MentionLegend } from "./answer-text.tsx";

function Fact({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-0.5 text-sm font-medium">{children}</dd>
    </div>
  );
}

const CITATION_SOURCE = {
  engine: "given by the engine",
  text: "links read from the text",
  none: "none",
} as const;

/** One answer: what was asked, what the engine said, and what was measured in it. */
export function AnswerView({ result }: { result: Result }) {
  const { project } = useBrand();
  const named = result.brand?.mentioned ?? false;
  const competitorsNamed = result.competitors.filter((c) => c.mentioned);
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] lg:items-start">
      <Card aria-labelledby="answer-title">
        <CardHeader>
          <div className="min-w-0">
            <p className="text-xs text-muted-foreground">Prompt</p>
            <CardTitle id="answer-title" className="mt-1">
              {result.prompt}
            </CardTitle>
            <CardDescription>
              {engineName(result.engine)} answered on{" "}
              <time dateTime={result.created_at}>{formatDateTime(result.created_at)}</time>, sample {result.sample}.
            </CardDescription>
          </div>
        </CardHeader>
        <CardContent className="grid gap-4">
          {result.status === "failed" ? (
            <p className="text-sm text-destructive">{result.error?.message ?? "The engine did not answer."}</p>
          ) : (
            <>
              <MentionLegend project={project} />
              <div className="rounded-lg border bg-background p-4">
                {result.text ? (
                  <AnswerText text={result.text} project={project} />
                ) : (
                  <p className="text-sm">
                    {result.text === null
                      ? "(text removed by the server's retention setting; its measures below are kept)"
                      : "(empty answer)"}
                  </p>
                )}
              </div>
            </>
          )}
        </CardContent>
      </Card>
      <div className="grid gap-6">
        <SectionCard titleId="measure-title" title="Measured">
          <dl className="grid grid-cols-2 gap-4">
            <Fact label={`${project.name} named`}>
              {named ? (
                <Badge variant="success">Yes, {plural(result.brand?.mentions ?? 0, "time")}</Badge>
              ) : (
                <Badge variant="muted">No</Badge>
              )}
            </Fact>
            <Fact label="Position (#1 = first)">{named ? position(result.brand?.position) : "–"}</Fact>
            <Fact label={<FigureName id="sentiment" />}>{named ? sentimentWord(result.brand?.sentiment) : "–"}</Fact>
            <Fact label={<FigureName id="visibility_score" />}>{score(result.score)}</Fact>
            <Fact label="Engine">{engineName(result.engine)}</Fact>
            <Fact label="Model">{result.model ?? "–"}</Fact>
            <Fact label="Brand's site cited">{result.brand_cited ? "Yes" : "No"}</Fact>
            <Fact label="Answered in">
              {result.latency_ms < 1000 ? `${result.latency_ms} ms` : `${(result.latency_ms / 1000).toFixed(1)} s`}
            </Fact>
          </dl>
          <div className="mt-4">
            <p className="text-xs text-muted-foreground">Competitors named</p>
            {competitorsNamed.length === 0 ? (
              <p className="mt-0.5 text-sm">None</p>
            ) : (
              <ul className="mt-1 grid gap-1 text-sm">
                {competitorsNamed.map((c) => (
                  <li key={c.name}>
                    {c.name} <span className="text-muted-foreground">at position {position(c.position)}</span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </SectionCard>
        <SectionCard
          titleId="citations-title"
          title="Citations"
          description={
            <>
              {plural(result.citations.length, "source")}, {CITATION_SOURCE[result.citation_source]}.
            </>
          }
        >
          {result.citations.length === 0 ? (
            <p className="text-sm text-muted-foreground">This answer cites no source.</p>
          ) : (
            <ol className="grid gap-3">
              {result.citations.map((citation, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the same URL may be cited twice; order is the engine's
                <li key={`${citation.url}-${index}`} className="grid gap-1 text-sm">
                  <a
                    href={citation.url}
                    target="_blank"
                    rel="noopener noreferrer nofollow"
                    className="inline-flex w-fit items-start gap-1 text-primary underline-offset-4 wrap-anywhere hover:underline"
                  >
                    {citation.title ?? citation.url}
                    <ExternalLinkIcon className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
                    <span className="sr-only">(opens in a new tab)</span>
                  </a>
                  <span className="flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
                    {citation.domain}
                    {citation.brand && <Badge variant="success">Your brand</Badge>}
                    {citation.competitor && <Badge variant="warning">{citation.competitor}</Badge>}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </SectionCard>
      </div>
    </div>
  );
}
