import { useQuery } from "@tanstack/react-query";
import { formatNumber, plural } from "../../lib/format.ts";
import { usageQuery } from "../usage/usage-api.ts";

/**
 * What an action will spend, said before it is confirmed: "12 credits of the 940 left this month".
 * One answer (prompt × engine × sample) is one credit; those of answers that fail are given back.
 */
export function CreditCost({ workspaceId, credits }: { workspaceId: string; credits: number }) {
  const usage = useQuery(usageQuery(workspaceId));
  const remaining = usage.data?.credits.remaining;
  return (
    <span className="mt-2 block rounded-md bg-muted px-3 py-2 text-sm text-foreground" aria-live="polite">
      <strong className="font-semibold">{plural(credits, "credit")}</strong>
      {remaining === undefined ? "" : ` of the ${formatNumber(remaining)} left this month`}. One credit per answer; the
      credits of answers that fail are given back.
      {remaining !== undefined && credits > remaining && (
        <span className="mt-1 block font-medium text-destructive">
          More than is left: the run will be refused (or skipped, for a schedule).
        </span>
      )}
    </span>
  );
}
