import { Progress } from "../../components/ui/progress.tsx";
import { formatDate, formatNumber, plural } from "../../lib/format.ts";
import type { Agency } from "./agencies-api.ts";

/**
 * The agency's monthly pool, which every client (and every pitch) draws on: used of the allowance,
 * what is left, and the day it renews.
 */
export function CreditPool({ credits }: { credits: Agency["credits"] }) {
  const share = credits.allowance > 0 ? Math.min(100, (credits.used / credits.allowance) * 100) : 100;
  const nearlyOut = share >= 90;
  return (
    <section aria-labelledby="pool-title" className="grid gap-2 rounded-xl border bg-card p-4 shadow-xs sm:p-5">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 id="pool-title" className="text-sm font-medium">
          Credit pool this month
        </h2>
        <p className="text-sm tabular-nums">
          <span className="font-semibold">{formatNumber(credits.used)}</span> of {plural(credits.allowance, "credit")}{" "}
          used
        </p>
      </div>
      <Progress
        value={share}
        aria-labelledby="pool-title"
        aria-valuetext={`${formatNumber(credits.used)} of ${formatNumber(credits.allowance)} credits used`}
        indicatorClassName={nearlyOut ? "bg-destructive" : undefined}
      />
      <p className={nearlyOut ? "text-sm font-medium text-destructive" : "text-sm text-muted-foreground"}>
        {plural(credits.remaining, "credit")} left, shared by every client and pitch; the pool renews on{" "}
        {formatDate(credits.period_end)}. One credit is one answer from one AI engine.
      </p>
    </section>
  );
}
