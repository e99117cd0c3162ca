import { breakdown } from "../analytics/breakdown.ts";
import type { ServiceContext } from "../context.ts";
import { scriptStats } from "../conversations/read.ts";
import type { Project } from "../projects/types.ts";
import type { ReportAudiences, ReportConversation } from "./types.ts";

/** Scripts a report lists at most. */
const MAX_SCRIPTS = 10;

/** The report's period in whole UTC days, as the figures it reads count them: the days it touches. */
function days(period: { start: string; end: string }): { from: string; to: string } {
  const next = new Date(`${period.end.slice(0, 10)}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return { from: `${period.start.slice(0, 10)}T00:00:00.000Z`, to: next.toISOString() };
}

/**
 * The brand's conversation scripts as a report freezes them (issue 29): per script and engine, the
 * conversations that ended in the report's period, and how often the brand entered, survived to
 * the final recommendation and dropped out, as `GET …/conversation-scripts/:id/stats` gives them.
 * Undefined when none ended: a brand without conversations carries no empty section.
 */
export async function reportConversations(
  ctx: ServiceContext,
  project: Project,
  period: { start: string; end: string },
): Promise<ReportConversation[] | undefined> {
  if (project.deleted_at !== undefined) return undefined;
  const range = days(period);
  const scripts = await ctx.db
    .selectFrom("conversations")
    .select(["script_id"])
    .distinct()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", project.id)
    .where("status", "=", "completed")
    .where("created_at", ">=", range.from)
    .where("created_at", "<", range.to)
    .limit(MAX_SCRIPTS)
    .execute();
  const out: ReportConversation[] = [];
  for (const { script_id } of scripts) {
    const stats = await scriptStats(ctx, project.id, script_id, range);
    if (stats.engines.length === 0) continue;
    out.push({
      script_id,
      script_name: stats.script_name,
      turns: stats.turns.length,
      engines: stats.engines.map((e) => ({
        engine: e.engine,
        conversations: e.conversations,
        entered: e.entered,
        survived: e.survived,
        dropped: e.dropped,
        entry_turn_median: e.entry_turn_median,
      })),
    });
  }
  return out.length === 0 ? undefined : out;
}

/**
 * The brand's visibility per persona and per country in the report's period (issue 29), when its
 * answers were asked under more than one of either; undefined when there is nothing to compare.
 */
export async function reportAudiences(
  ctx: ServiceContext,
  project: Project,
  period: { start: string; end: string },
): Promise<ReportAudiences | undefined> {
  if (project.deleted_at !== undefined) return undefined;
  const groups = async (by: "persona" | "country") =>
    (await breakdown(ctx, project.id, { by, ...days(period) })).groups.map((g) => ({
      label: g.label,
      answers: g.answers,
      visibility: g.visibility,
      against_all: g.against_all,
    }));
  const byPersona = await groups("persona");
  const byCountry = await groups("country");
  if (byPersona.length < 2 && byCountry.length < 2) return undefined;
  return { by_persona: byPersona, by_country: byCountry };
}
