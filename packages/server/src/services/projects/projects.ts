import { isDeepStrictEqual } from "node:util";
import { notFound } from "../../errors/api-error.ts";
import { newId } from "../../lib/ids.ts";
import { type Deps, inTransaction, type ServiceContext } from "../context.ts";
import { workspaceEngines } from "../engines/workspace-engines.ts";
import { recordEvent } from "../events/events.ts";
import { fetchPage, type Page, type PageParams } from "../pagination.ts";
import { checkEnginesInPlan } from "../plans/engines.ts";
import { normalizeSettings } from "./normalize.ts";
import { keepTracked } from "./prompt-tags.ts";
import { rowToProject, settingsToColumns } from "./row.ts";
import {
  DEFAULT_PROJECT_ENGINES,
  PROJECT_SETTINGS,
  type Project,
  type ProjectInput,
  type ProjectPatch,
  type ProjectSettings,
} from "./types.ts";

export async function createProject(ctx: ServiceContext, input: ProjectInput): Promise<Project> {
  const settings = normalizeSettings(
    {
      name: input.name,
      primary_domain: input.primary_domain,
      other_domains: input.other_domains ?? [],
      aliases: input.aliases ?? [],
      case_sensitive_aliases: input.case_sensitive_aliases ?? [],
      exclusions: input.exclusions ?? [],
      citation_categories: input.citation_categories ?? [],
      competitors: input.competitors ?? [],
      prompts: input.prompts ?? [],
      prompt_tags: input.prompt_tags ?? {},
      paused_prompts: input.paused_prompts ?? [],
      category: input.category ?? null,
      facts: input.facts ?? {},
      engines: input.engines ?? DEFAULT_PROJECT_ENGINES,
      country: input.country ?? null,
      countries: input.countries ?? [],
      language: input.language ?? null,
    },
    (await workspaceEngines(ctx)).names(),
  );
  checkEnginesInPlan(ctx, settings.engines);
  const now = ctx.clock.now().toISOString();
  const row = {
    id: newId("prj"),
    workspace_id: ctx.workspace.id,
    ...settingsToColumns(settings),
    created_at: now,
    updated_at: now,
    deleted_at: null,
    deleted_by: null,
  };
  return inTransaction(ctx, async (tx) => {
    await tx.db.insertInto("projects").values(row).execute();
    const project = rowToProject(row);
    await recordEvent(tx, "project.created", { object: project });
    return project;
  });
}

/** The workspace's live brands, or with `deleted` its deleted ones that can still be restored. */
export async function listProjects(
  ctx: ServiceContext,
  params: PageParams & { deleted?: boolean },
): Promise<Page<Project>> {
  const query = ctx.db
    .selectFrom("projects")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("deleted_at", params.deleted === true ? "is not" : "is", null);
  return fetchPage(query, params, rowToProject);
}

/** The workspace a project belongs to, for the operator's tools, which act on any workspace. */
export async function projectWorkspace(deps: Deps, projectId: string): Promise<string> {
  const row = await deps.db
    .selectFrom("projects")
    .select("workspace_id")
    .where("id", "=", projectId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (row === undefined) throw notFound("project", projectId);
  return row.workspace_id;
}

export async function getProject(
  ctx: ServiceContext,
  id: string,
  /**
   * `included` for work accepted before the brand was deleted (a queued or running analysis): it
   * finishes, its answers hidden with the brand and back with it when restored.
   */
  options: { deleted?: "included" } = {},
): Promise<Project> {
  let query = ctx.db
    .selectFrom("projects")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "=", id);
  if (options.deleted !== "included") query = query.where("deleted_at", "is", null);
  const row = await query.executeTakeFirst();
  if (row === undefined) throw notFound("project", id);
  return rowToProject(row);
}

/**
 * Applies a partial change. Fields left out keep their value; a change that leaves every
 * setting as it was writes nothing and emits no event.
 */
export function updateProject(ctx: ServiceContext, id: string, patch: ProjectPatch): Promise<Project> {
  return changeProject(ctx, id, () => patch);
}

/**
 * Applies the change `change` makes of the brand as it is now, read under a row lock: concurrent
 * changes of one brand take turns, so a change made of one prompt cannot undo another editor's.
 */
export async function changeProject(
  ctx: ServiceContext,
  id: string,
  change: (current: Project) => ProjectPatch,
): Promise<Project> {
  return inTransaction(ctx, async (tx) => {
    const row = await tx.sql
      .lockRows(
        tx.db
          .selectFrom("projects")
          .selectAll()
          .where("workspace_id", "=", tx.workspace.id)
          .where("id", "=", id)
          .where("deleted_at", "is", null),
      )
      .executeTakeFirst();
    if (row === undefined) throw notFound("project", id);
    const current = rowToProject(row);
    const patch = change(current);
    const prompts = patch.prompts ?? current.prompts;
    // Tags and pauses not sent follow the prompts: those of a prompt no longer tracked go with it.
    const kept = keepTracked(prompts, current.prompt_tags ?? {}, current.paused_prompts ?? []);
    const next = normalizeSettings(
      {
        name: patch.name ?? current.name,
        primary_domain: patch.primary_domain ?? current.primary_domain,
        other_domains: patch.other_domains ?? current.other_domains,
        aliases: patch.aliases ?? current.aliases,
        case_sensitive_aliases: patch.case_sensitive_aliases ?? current.case_sensitive_aliases ?? [],
        exclusions: patch.exclusions ?? current.exclusions ?? [],
        citation_categories: patch.citation_categories ?? current.citation_categories ?? [],
        competitors: patch.competitors ?? current.competitors,
        prompts,
        prompt_tags: patch.prompt_tags ?? kept.prompt_tags,
        paused_prompts: patch.paused_prompts ?? kept.paused_prompts,
        category: patch.category === undefined ? (current.category ?? null) : patch.category,
        facts: patch.facts ?? current.facts ?? {},
        engines: patch.engines ?? current.engines,
        country: patch.country === undefined ? current.country : patch.country,
        countries: patch.countries ?? current.countries ?? [],
        language: patch.language === undefined ? current.language : patch.language,
      },
      (await workspaceEngines(tx)).names(),
    );
    if (patch.engines !== undefined) checkEnginesInPlan(tx, next.engines);

    const previous: Partial<ProjectSettings> = {};
    for (const field of PROJECT_SETTINGS) {
      if (!isDeepStrictEqual(current[field], next[field])) {
        (previous as Record<string, unknown>)[field] = current[field];
      }
    }
    if (Object.keys(previous).length === 0) return current;

    const updatedAt = tx.clock.now().toISOString();
    await tx.db
      .updateTable("projects")
      .set({ ...settingsToColumns(next), updated_at: updatedAt })
      .where("workspace_id", "=", tx.workspace.id)
      .where("id", "=", id)
      .execute();
    const project: Project = { ...current, ...next, updated_at: updatedAt };
    await recordEvent(tx, "project.updated", { object: project, previous_attributes: previous });
    return project;
  });
}
