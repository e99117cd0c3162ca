import { ownValue } from "../../lib/own-keys.ts";
import type { AnalysisSummary } from "../analyses/types.ts";
import type { Branding } from "../branding/types.ts";
import type { Deps } from "../context.ts";
import { percent, sentiment } from "../glossary/format.ts";
import { GLOSSARY } from "../glossary/metrics.ts";
import { engineTitle } from "../labels.ts";
import type { Summary } from "../measurement/aggregate.ts";
import { alertColumns, runColumns } from "../monitoring/columns.ts";
import { ruleInWords } from "../monitoring/rule-words.ts";
import { visibilityChange, visibilityFigure } from "./figures.ts";
import { dashboardLink } from "./links.ts";
import type { Message } from "./message.ts";

function pick(summary: AnalysisSummary | null, engine: string | null): Summary | null {
  if (summary === null) return null;
  return engine === null ? summary.overall : (ownValue(summary.by_engine, engine) ?? null);
}

/**
 * What an alert says, read when it is sent (after the run that fired it has committed): the brand,
 * the rule in words, the engine, visibility with its 95% interval and n, the change against the
 * schedule's previous run and whether it is statistically real, and a signed link to the brand's
 * monitoring page. "Sightline" only where the workspace's branding shows it. Null when the alert no
 * longer exists (its workspace was deleted).
 */
export async function alertMessage(
  deps: Deps,
  workspaceId: string,
  alertId: string,
  branding: Branding,
): Promise<Message | null> {
  const alert = await deps.db
    .selectFrom("alerts")
    .selectAll()
    .where("workspace_id", "=", workspaceId)
    .where("id", "=", alertId)
    .executeTakeFirst();
  if (alert === undefined) return null;
  const project = await deps.db
    .selectFrom("projects")
    .select(["name"])
    .where("workspace_id", "=", workspaceId)
    .where("id", "=", alert.project_id)
    .executeTakeFirst();
  const run = await deps.db
    .selectFrom("monitoring_runs")
    .select(["summary", "change", "completed_at"])
    .where("workspace_id", "=", workspaceId)
    .where("id", "=", alert.run_id)
    .executeTakeFirst();
  const summary = runColumns.summary.readNullable(run?.summary);
  const change = runColumns.change.readNullable(run?.change);
  const previous =
    change === null
      ? undefined
      : await deps.db
          .selectFrom("monitoring_runs")
          .select("summary")
          .where("workspace_id", "=", workspaceId)
          .where("id", "=", change.previous_run_id)
          .executeTakeFirst();
  const rule = alertColumns.rule.read(alert.rule);
  const brand = project?.name ?? "A brand";
  const now = pick(summary, alert.engine);
  const before = pick(runColumns.summary.readNullable(previous?.summary), alert.engine);

  const facts: Message["facts"] = [
    { label: "Brand", value: brand },
    { label: "Rule", value: ruleInWords(rule) },
    { label: "Engine", value: alert.engine === null ? "All engines together" : engineTitle(alert.engine) },
  ];
  if (now !== null) {
    facts.push({ label: "Figure", value: visibilityFigure(now.visibility) });
    facts.push({
      label: "Change",
      value: visibilityChange(now.visibility, before?.visibility ?? null, "the previous run"),
    });
    if (rule.type === "competitor_overtakes") {
      facts.push({
        label: "Share of voice",
        value: `${rule.competitor} ${percent(alert.observed)}, the brand ${percent(alert.previous)}`,
      });
    }
    if (rule.type === "sentiment_below") {
      facts.push({ label: GLOSSARY.sentiment.name, value: sentiment(alert.observed) });
    }
    if (rule.type === "domain_not_cited") {
      facts.push({
        label: "Citations of the brand's sites",
        value: `${alert.observed ?? 0} (${alert.previous ?? 0} last run)`,
      });
    }
  }
  facts.push({ label: "Run", value: run?.completed_at ?? alert.created_at });
  return {
    subject: `Alert: ${brand} — ${ruleInWords(rule)}`,
    headline: `${brand}: ${alert.message}`,
    facts,
    links: [
      {
        label: branding.show_sightline ? "Open in Sightline" : "Open the monitoring page",
        url: dashboardLink(deps, `/w/${workspaceId}/brands/${alert.project_id}/monitoring`),
      },
    ],
    footer: `${branding.show_sightline ? "Sent by Sightline" : "Sent"} because this alert rule names this channel. Change it on the brand's monitoring page.`,
  };
}
