import { createProject, getProject, listProjects, updateProject } from "../../../services/projects/projects.ts";
import {
  ProjectCreateSchema,
  ProjectListQuery,
  ProjectListSchema,
  ProjectSchema,
  ProjectUpdateSchema,
} from "../../../services/projects/schemas.ts";
import { defineRoute } from "../../route.ts";
import { IdParams } from "../../schema.ts";

const tag = "Projects";

export const listProjectsRoute = defineRoute({
  operationId: "listProjects",
  method: "GET",
  path: "/projects",
  tag,
  summary: "List brands",
  description: "The workspace's brands, newest first.",
  scope: "projects",
  query: ProjectListQuery,
  success: { status: 200, description: "A page of brands.", schema: ProjectListSchema },
  cachedAs: "projects",
  handler: ({ ctx, query }) => listProjects(ctx, query),
});

export const createProjectRoute = defineRoute({
  operationId: "createProject",
  method: "POST",
  path: "/projects",
  tag,
  summary: "Add a brand",
  description: "Adds a brand to measure. Emits `project.created`.",
  scope: "projects",
  body: ProjectCreateSchema,
  success: { status: 201, description: "The brand as stored.", schema: ProjectSchema },
  errors: ["ENGINE_NOT_ALLOWED"],
  handler: ({ ctx, body }) => createProject(ctx, body),
});

export const getProjectRoute = defineRoute({
  operationId: "getProject",
  method: "GET",
  path: "/projects/:id",
  tag,
  summary: "Read a brand",
  description: "One brand of the workspace.",
  scope: "projects",
  extension: true,
  params: IdParams,
  success: { status: 200, description: "The brand.", schema: ProjectSchema },
  errors: ["NOT_FOUND"],
  cachedAs: "projects",
  handler: ({ ctx, params }) => getProject(ctx, params.id),
});

export const updateProjectRoute = defineRoute({
  operationId: "updateProject",
  method: "PATCH",
  path: "/projects/:id",
  tag,
  summary: "Change a brand's settings",
  description:
    "Changes the fields sent and keeps the others. Emits `project.updated` with `previous_attributes` when a setting actually changes.",
  scope: "projects",
  extension: true,
  params: IdParams,
  body: ProjectUpdateSchema,
  success: { status: 200, description: "The brand after the change.", schema: ProjectSchema },
  errors: ["NOT_FOUND", "ENGINE_NOT_ALLOWED"],
  handler: ({ ctx, params, body }) => updateProject(ctx, params.id, body),
});
