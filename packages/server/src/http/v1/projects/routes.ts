import { createProject, getProject, listProjects, updateProject } from "../../../services/projects/projects.ts";
import { addPrompt, changePrompt, removePrompt } from "../../../services/projects/prompts.ts";
import {
  ProjectCreateSchema,
  ProjectDeletedSchema,
  ProjectListQuery,
  ProjectListSchema,
  ProjectSchema,
  ProjectUpdateSchema,
  PromptAddSchema,
  PromptChangeSchema,
  PromptRemoveQuery,
} from "../../../services/projects/schemas.ts";
import { deleteProject, restoreProject } from "../../../services/retention/brand-deletion.ts";
import { defineRoute } from "../../route.ts";
import { IdParams } from "../../schema.ts";

const tag = "Projects";

export const listProjectsRoute = defineRoute({
  operationId: "listProjects",
  method: "GET",
  path: "/projects",
  tag,
  summary: "List brands",
  description:
    "The workspace's brands, newest first. With `deleted=true` (an extension), the deleted brands that can still be restored, with `deleted_at` and `purge_at`.",
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

export const deleteProjectRoute = defineRoute({
  operationId: "deleteProject",
  method: "DELETE",
  path: "/projects/:id",
  tag,
  summary: "Delete a brand",
  description:
    "An addition to the spec. The brand disappears at once from every list, read, analytics, report and search, with its answers, analyses, schedules and alerts; its schedules stop and no analysis of it starts. Everything is kept for 30 days: `POST /projects/:id/restore` brings it back unchanged until `purge_at`, after which it and all its data are purged. The spec lists no deletion event, so none is emitted. In the dashboard, owners and admins only.",
  scope: "projects",
  memberPermission: "delete_project",
  extension: true,
  params: IdParams,
  success: {
    status: 200,
    description: "What was deleted, and until when it can be restored.",
    schema: ProjectDeletedSchema,
  },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => deleteProject(ctx, params.id),
});

export const restoreProjectRoute = defineRoute({
  operationId: "restoreProject",
  method: "POST",
  path: "/projects/:id/restore",
  tag,
  summary: "Restore a deleted brand",
  description:
    "Brings a brand deleted less than 30 days ago back with everything it had: answers, figures, schedules (resuming at their next slot, without catching up), alerts and reports. NOT_FOUND for a brand that is not deleted or was purged. In the dashboard, owners and admins only.",
  scope: "projects",
  memberPermission: "delete_project",
  extension: true,
  params: IdParams,
  success: { status: 200, description: "The brand, restored.", schema: ProjectSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => restoreProject(ctx, params.id),
});

export const addPromptRoute = defineRoute({
  operationId: "addPrompt",
  method: "POST",
  path: "/projects/:id/prompts",
  tag,
  summary: "Add a prompt",
  description:
    "Adds one tracked prompt (with its tags, optionally paused) to the brand as it is now, without resending the list: two people adding prompts at once both get theirs. Emits `project.updated`.",
  scope: "projects",
  extension: true,
  params: IdParams,
  body: PromptAddSchema,
  success: { status: 201, description: "The brand with the prompt.", schema: ProjectSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, body }) => addPrompt(ctx, params.id, body),
});

export const changePromptRoute = defineRoute({
  operationId: "changePrompt",
  method: "PATCH",
  path: "/projects/:id/prompts",
  tag,
  summary: "Reword, tag or pause a prompt",
  description:
    "Changes one tracked prompt, named by its current wording: its wording (`text`), its tags (replaced) or its pause. A new wording is a new question: the answers so far keep the wording they were asked with and their figures stay under it; the tags and pause follow the prompt. Emits `project.updated`.",
  scope: "projects",
  extension: true,
  params: IdParams,
  body: PromptChangeSchema,
  success: { status: 200, description: "The brand after the change.", schema: ProjectSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, body }) => changePrompt(ctx, params.id, body),
});

export const removePromptRoute = defineRoute({
  operationId: "removePrompt",
  method: "DELETE",
  path: "/projects/:id/prompts",
  tag,
  summary: "Stop tracking a prompt",
  description:
    "Removes one tracked prompt with its tags and pause. Its answers so far are kept. Emits `project.updated`.",
  scope: "projects",
  extension: true,
  params: IdParams,
  query: PromptRemoveQuery,
  success: { status: 200, description: "The brand without the prompt.", schema: ProjectSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, query }) => removePrompt(ctx, params.id, query.prompt),
});
