import type { Static } from "typebox";
import { validationError } from "../../errors/api-error.ts";
import { inTransaction, type ServiceContext } from "../context.ts";
import { PROJECT_LIMITS } from "../limits.ts";
import { fold } from "../measurement/normalize.ts";
import { getProject, updateProject } from "./projects.ts";
import type { CompetitorInputSchema } from "./schemas.ts";
import type { Project } from "./types.ts";

type CompetitorInput = Static<typeof CompetitorInputSchema>;

/**
 * Starts tracking a brand as a competitor: appended to the project's list through the ordinary
 * update, so the same validation, limits and `project.updated` event apply. A name the project
 * already tracks (its brand, a competitor, or one of their aliases, case and typography ignored)
 * is refused rather than silently dropped, so the caller learns that nothing changed.
 */
export async function trackCompetitor(
  ctx: ServiceContext,
  projectId: string,
  input: CompetitorInput,
): Promise<Project> {
  return inTransaction(ctx, async (tx) => {
    const project = await getProject(tx, projectId);
    const key = fold(input.name);
    if (key === "") throw validationError([{ field: "name", issue: "must not be empty" }]);
    const own = [project.name, ...project.aliases, ...(project.case_sensitive_aliases ?? [])];
    if (own.some((name) => fold(name) === key)) {
      throw validationError([{ field: "name", issue: `is the brand's own name or alias (${project.name})` }]);
    }
    const rival = project.competitors.find((c) =>
      [c.name, ...c.aliases, ...(c.case_sensitive_aliases ?? [])].some((name) => fold(name) === key),
    );
    if (rival !== undefined) {
      throw validationError([{ field: "name", issue: `is already tracked as the competitor ${rival.name}` }]);
    }
    if (project.competitors.length >= PROJECT_LIMITS.competitors) {
      throw validationError([
        {
          field: "name",
          issue: `the project already has ${PROJECT_LIMITS.competitors} competitors, the most it may have`,
        },
      ]);
    }
    return updateProject(tx, projectId, { competitors: [...project.competitors, input] });
  });
}
