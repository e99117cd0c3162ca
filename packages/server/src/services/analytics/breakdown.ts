import { sql } from "kysely";
import type { Static } from "typebox";
import { validationError } from "../../errors/api-error.ts";
import { displayName } from "../../lib/locale.ts";
import type { ServiceContext } from "../context.ts";
import { compareIntervals, proportion } from "../measurement/aggregate.ts";
import { getProject } from "../projects/projects.ts";
import type { BreakdownSchema } from "./breakdown-schemas.ts";
import { periodOf } from "./period.ts";

export type Breakdown = Static<typeof BreakdownSchema>;

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * The brand's figures side by side for each persona or each country its answers were asked under
 * (issue 29), over a period: counted straight from the stored answers (single answers that
 * succeeded; a conversation's turns are measured on their own), each with its interval, and
 * whether it stands apart from all answers together.
 */
export async function breakdown(
  ctx: ServiceContext,
  projectId: string,
  input: { by: "persona" | "country"; from?: string; to?: string; engine?: string },
): Promise<Breakdown> {
  const project = await getProject(ctx, projectId);
  const period = periodOf(input, ctx.clock);
  if (input.engine !== undefined && !/^[a-z0-9_]{1,64}$/.test(input.engine))
    throw validationError([{ field: "engine", issue: "is not an engine name" }]);
  const key = input.by === "persona" ? sql.ref("persona_id") : sql.ref("country");
  let query = ctx.db
    .selectFrom("results")
    .select([
      sql<string | null>`${key}`.as("key"),
      sql<number>`count(*)`.as("answers"),
      sql<number>`sum(case when mentioned then 1 else 0 end)`.as("mentioned"),
      sql<number>`sum(case when brand_cited then 1 else 0 end)`.as("cited"),
      sql<number>`sum(position)`.as("position_sum"),
      sql<number>`count(position)`.as("position_count"),
      sql<number>`sum(sentiment)`.as("sentiment_sum"),
      sql<number>`count(sentiment)`.as("sentiment_count"),
      sql<number>`sum(score)`.as("score_sum"),
    ])
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", project.id)
    .where("status", "=", "succeeded")
    .where("conversation_id", "is", null)
    .where("created_at", ">=", period.from)
    .where("created_at", "<", period.to);
  if (input.engine !== undefined) query = query.where("engine", "=", input.engine);
  const rows = await query.groupBy(key).execute();
  const names = new Map<string, string>();
  if (input.by === "persona") {
    const ids = rows.flatMap((r) => (r.key === null ? [] : [r.key]));
    if (ids.length > 0) {
      const versions = await ctx.db
        .selectFrom("persona_versions")
        .select(["persona_id", "name", "version"])
        .where("workspace_id", "=", ctx.workspace.id)
        .where("persona_id", "in", ids)
        .orderBy("version")
        .execute();
      for (const v of versions) names.set(v.persona_id, v.name);
    }
  }
  const total = rows.reduce((sum, r) => sum + Number(r.answers), 0);
  const mentionedTotal = rows.reduce((sum, r) => sum + Number(r.mentioned ?? 0), 0);
  const overall = proportion(mentionedTotal, total);
  const groups = rows
    .map((r) => {
      const answers = Number(r.answers);
      const visibility = proportion(Number(r.mentioned ?? 0), answers);
      const positionCount = Number(r.position_count ?? 0);
      const sentimentCount = Number(r.sentiment_count ?? 0);
      return {
        key: r.key,
        label:
          r.key === null
            ? input.by === "persona"
              ? "No persona"
              : "No country"
            : input.by === "persona"
              ? (names.get(r.key) ?? r.key)
              : displayName(r.key, "region"),
        answers,
        visibility,
        citation_rate: proportion(Number(r.cited ?? 0), answers),
        average_position: positionCount === 0 ? null : round(Number(r.position_sum) / positionCount),
        sentiment: sentimentCount === 0 ? null : round(50 + (50 * Number(r.sentiment_sum)) / sentimentCount, 1),
        visibility_score: answers === 0 ? null : round(Number(r.score_sum ?? 0) / answers, 1),
        against_all: compareIntervals(visibility, overall),
      };
    })
    .sort((a, b) => (a.key === null ? -1 : b.key === null ? 1 : a.label.localeCompare(b.label)));
  return {
    by: input.by,
    from: period.from,
    to: period.to,
    engine: input.engine ?? null,
    answers: total,
    visibility: overall,
    groups,
  };
}
