import type { ServiceContext } from "../context.ts";
import { fetchPage, type Page, type PageParams } from "../pagination.ts";
import { rowToAlert } from "./runs.ts";
import type { AlertView } from "./types.ts";

export async function listAlerts(
  ctx: ServiceContext,
  params: PageParams & { project_id?: string; schedule_id?: string },
): Promise<Page<AlertView>> {
  let query = ctx.db.selectFrom("alerts").selectAll().where("workspace_id", "=", ctx.workspace.id);
  if (params.project_id !== undefined) query = query.where("project_id", "=", params.project_id);
  if (params.schedule_id !== undefined) query = query.where("schedule_id", "=", params.schedule_id);
  return fetchPage(query, params, rowToAlert);
}
