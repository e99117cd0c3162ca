import { notFound } from "../../errors/api-error.ts";
import type { ServiceContext } from "../context.ts";
import { fetchPage, type Page, type PageParams } from "../pagination.ts";
import { liveProjectIds } from "../projects/live.ts";
import type { Analysis, AnalysisStatus } from "./types.ts";
import { answerCounts, rowToAnalysis } from "./view.ts";

export async function getAnalysis(ctx: ServiceContext, id: string): Promise<Analysis> {
  const row = await ctx.db
    .selectFrom("analyses")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "=", id)
    .where("project_id", "in", liveProjectIds(ctx.db, ctx.workspace.id))
    .executeTakeFirst();
  if (row === undefined) throw notFound("analysis", id);
  const counts = await answerCounts(ctx.db, ctx.workspace.id, [row.id]);
  return rowToAnalysis(row, counts.get(row.id));
}

export async function listAnalyses(
  ctx: ServiceContext,
  params: PageParams & { project_id?: string; status?: AnalysisStatus },
): Promise<Page<Analysis>> {
  let query = ctx.db
    .selectFrom("analyses")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "in", liveProjectIds(ctx.db, ctx.workspace.id));
  if (params.project_id !== undefined) query = query.where("project_id", "=", params.project_id);
  if (params.status !== undefined) query = query.where("status", "=", params.status);
  const page = await fetchPage(query, params, (row) => row);
  const counts = await answerCounts(
    ctx.db,
    ctx.workspace.id,
    page.data.map((row) => row.id),
  );
  return { ...page, data: page.data.map((row) => rowToAnalysis(row, counts.get(row.id))) };
}
