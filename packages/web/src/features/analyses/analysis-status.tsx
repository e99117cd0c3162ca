import type { Analysis } from "@sightline/sdk";
import { AlertTriangleIcon } from "lucide-react";
import { Badge } from "../../components/ui/badge.tsx";
import { engineName, plural } from "../../lib/format.ts";

const STATUS = {
  queued: { label: "Queued", variant: "muted" },
  running: { label: "Running", variant: "secondary" },
  completed: { label: "Completed", variant: "success" },
  failed: { label: "Failed", variant: "destructive" },
  skipped: { label: "Skipped", variant: "warning" },
  partial: { label: "Completed with failures", variant: "warning" },
} as const;

/**
 * The status of an analysis or a monitoring run. A completed one some of whose answers failed is
 * "Completed with failures", in amber: the API keeps `completed` and counts the failed answers.
 */
export function AnalysisStatus({ status, failed = 0 }: { status: keyof typeof STATUS; failed?: number }) {
  const shown = STATUS[status === "completed" && failed > 0 ? "partial" : status];
  return <Badge variant={shown.variant}>{shown.label}</Badge>;
}

type EngineFailure = Analysis["errors"][number];

/** The engines' failures grouped by what went wrong: one reason, with the engines it hit and how many answers. */
function reasonsOf(errors: EngineFailure[]): { message: string; engines: string[]; answers: number }[] {
  const byMessage = new Map<string, { message: string; engines: string[]; answers: number }>();
  for (const error of errors) {
    const entry = byMessage.get(error.message) ?? { message: error.message, engines: [], answers: 0 };
    entry.engines.push(engineName(error.engine));
    entry.answers += error.answers;
    byMessage.set(error.message, entry);
  }
  return [...byMessage.values()];
}

/** "5 of 10 answers failed", and why, grouped by reason: under the amber badge, wherever it is shown. */
export function FailureSummary({
  failed,
  total,
  errors,
  compact = false,
}: {
  failed: number;
  total: number;
  errors: EngineFailure[];
  compact?: boolean;
}) {
  if (failed === 0) return null;
  const reasons = reasonsOf(errors);
  const headline = `${failed} of ${plural(total, "answer")} failed`;
  if (compact) {
    return (
      <span className="mt-1 block text-xs text-warning">
        {headline}
        {reasons.length > 0 && `: ${reasons.map((r) => `${r.engines.join(", ")} (${r.message})`).join("; ")}`}
      </span>
    );
  }
  return (
    <div className="grid gap-2 rounded-md border border-warning/40 bg-warning/5 p-3 text-sm">
      <p className="flex items-center gap-2 font-medium text-warning">
        <AlertTriangleIcon className="size-4" aria-hidden="true" />
        {headline}
      </p>
      <ul className="grid gap-1">
        {reasons.map((reason) => (
          <li key={reason.message}>
            <strong className="font-medium">{reason.engines.join(", ")}</strong> ({plural(reason.answers, "answer")}):{" "}
            {reason.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

export const TRIGGER_NAMES: Record<Analysis["trigger"], string> = {
  api: "API",
  monitoring: "Monitoring",
  dashboard: "Dashboard",
  cli: "Command line",
};
