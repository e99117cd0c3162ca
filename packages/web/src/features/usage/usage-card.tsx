import type { Usage } from "@sightline/sdk";
import { useQuery } from "@tanstack/react-query";
import { FigureHint } from "../../components/figure-hint.tsx";
import { QueryState } from "../../components/page-states.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Progress } from "../../components/ui/progress.tsx";
import { formatDate, formatNumber, formatUsd, planName, plural } from "../../lib/format.ts";
import type { Workspace } from "../../lib/types.ts";
import { useWorkspace } from "../workspace/workspace-context.tsx";
import { usageQuery } from "./usage-api.ts";
import { CostByEngine, CostByMonth, CreditsByEngine, RequestsByEndpoint } from "./usage-tables.tsx";

/** The last day of a half-open period [start, end): the day before `end`. */
function lastDay(end: string): Date {
  return new Date(new Date(end).getTime() - 1);
}

export function UsageCard() {
  const workspace = useWorkspace();
  const usage = useQuery(usageQuery(workspace.id));
  return (
    <SectionCard
      id="usage"
      titleId="usage-title"
      title="Usage and plan"
      description="What this workspace has used in the current billing period."
    >
      <QueryState query={usage} loading="Loading usage…" error="Usage could not be loaded" />
      {usage.data && <UsageDetails usage={usage.data} agency={workspace.agency} />}
    </SectionCard>
  );
}

function UsageDetails({ usage, agency }: { usage: Usage; agency: Workspace["agency"] }) {
  const { credits, rate_limit: rateLimit } = usage;
  const percent = credits.allowance > 0 ? Math.min(100, (credits.used / credits.allowance) * 100) : 100;
  const nearlyOut = percent >= 90;
  const perMinute =
    rateLimit.enabled && rateLimit.limit !== null
      ? rateLimit.window_seconds && rateLimit.window_seconds !== 60
        ? `${formatNumber(rateLimit.limit)} requests per ${formatNumber(rateLimit.window_seconds)} seconds`
        : `${formatNumber(rateLimit.limit)} requests per minute`
      : "No limit (turned off on this server)";

  return (
    <div className="grid gap-6">
      <dl className="grid gap-4 sm:grid-cols-3">
        <div>
          <dt className="text-sm text-muted-foreground">Plan</dt>
          <dd className="mt-0.5 font-medium">{planName(usage.plan)}</dd>
        </div>
        <div>
          <dt className="text-sm text-muted-foreground">Billing period</dt>
          <dd className="mt-0.5 font-medium">
            {formatDate(usage.period.start)} – {formatDate(lastDay(usage.period.end))}
          </dd>
          <dd className="text-xs text-muted-foreground">Credits renew on {formatDate(usage.period.end)}</dd>
        </div>
        <div>
          <dt className="text-sm text-muted-foreground">API rate limit</dt>
          <dd className="mt-0.5 font-medium">{perMinute}</dd>
        </div>
      </dl>

      <section aria-labelledby="credits-title" className="grid gap-2">
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
          <h3 id="credits-title" className="text-sm font-medium">
            Credits this period
          </h3>
          <p className="text-sm tabular-nums">
            <span className="font-semibold">{formatNumber(credits.used)}</span> of {plural(credits.allowance, "credit")}{" "}
            used
          </p>
        </div>
        <Progress
          value={percent}
          aria-labelledby="credits-title"
          aria-valuetext={`${formatNumber(credits.used)} of ${formatNumber(credits.allowance)} credits used`}
          indicatorClassName={nearlyOut ? "bg-destructive" : undefined}
        />
        <p className={nearlyOut ? "text-sm font-medium text-destructive" : "text-sm text-muted-foreground"}>
          {plural(credits.remaining, "credit")} left until {formatDate(usage.period.end)}. One credit is one answer from
          one AI engine.
          {credits.remaining <= 0 && " New analyses are refused until the period renews."}
        </p>
        {agency && (
          <p className="text-sm text-muted-foreground">
            {agency.credit_cap === null
              ? `Credits come from the pool ${agency.name} shares among its clients; this client has no cap of its own.`
              : `Credits come from the pool ${agency.name} shares among its clients, within the cap of ${plural(agency.credit_cap, "credit")} a month ${agency.name} set for this client.`}{" "}
            The cap and the pool renew on {formatDate(usage.period.end)}.
          </p>
        )}
      </section>

      <section aria-labelledby="cost-title" className="grid gap-2">
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
          <div className="flex items-center gap-1">
            <h3 id="cost-title" className="text-sm font-medium">
              What the AI engines charged this period
            </h3>
            <FigureHint id="cost" />
          </div>
          <p className="text-sm tabular-nums">
            <span className="font-semibold">{formatUsd(usage.cost.period.total)}</span> for{" "}
            {plural(usage.cost.period.answers, "answer")}
          </p>
        </div>
        <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
          <CostByEngine cost={usage.cost.period} />
          <CostByMonth months={usage.cost.months} />
        </div>
        <p className="text-xs text-muted-foreground">
          Your vendors' charges for the answers of finished analyses: what each vendor reported (tokens, searches, or
          its own price), priced from this server's price table. Sightline's credits are counted apart.
        </p>
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="by-engine-title" className="grid gap-2">
          <h3 id="by-engine-title" className="text-sm font-medium">
            Credits by AI engine
          </h3>
          <CreditsByEngine byEngine={credits.by_engine} used={credits.used} />
        </section>
        <section aria-labelledby="requests-title" className="grid gap-2">
          <h3 id="requests-title" className="text-sm font-medium">
            API requests this period: <span className="tabular-nums">{formatNumber(usage.requests.total)}</span>
          </h3>
          <RequestsByEndpoint byEndpoint={usage.requests.by_endpoint} />
        </section>
      </div>
    </div>
  );
}
