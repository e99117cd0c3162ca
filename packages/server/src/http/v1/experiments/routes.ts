import { createChange, getChange, listChanges } from "../../../services/experiments/changes.ts";
import { deleteChange, scheduleSamples } from "../../../services/experiments/samples.ts";
import {
  ChangeCreateSchema,
  ChangeDeletedSchema,
  ChangeListQuery,
  ChangeListSchema,
  ChangeParams,
  ChangeSamplesSchema,
  ChangeSchema,
} from "../../../services/experiments/schemas.ts";
import { defineRoute } from "../../route.ts";
import { IdParams } from "../../schema.ts";

const tag = "Experiments";

export const createChangeRoute = defineRoute({
  operationId: "createChange",
  method: "POST",
  path: "/projects/:id/changes",
  tag,
  summary: "Record a change",
  description:
    "Records a change the brand made (its pages, or an outside placement) to measure as an experiment: `title`, `changed_at` (now by default), `pages` on the brand's domains, `placement_url`, the treated `prompts` it should move and the `control_prompts` it should not. Treated prompts left out are the opportunity's (`opportunity_id`) or proposed: the prompts whose answers cite the changed pages or the placement, then those sharing their words; controls left out are the brand's other active prompts. Two a side at least, all of them the brand's prompts. The answer carries the sample plan: the answers needed for `effect` (10 points by default) with 80% power, and what the missing ones cost.",
  scope: "projects",
  extension: true,
  params: IdParams,
  body: ChangeCreateSchema,
  success: { status: 201, description: "The change, with its plan and figures so far.", schema: ChangeSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, body }) => createChange(ctx, params.id, body),
});

export const listChangesRoute = defineRoute({
  operationId: "listChanges",
  method: "GET",
  path: "/projects/:id/changes",
  tag,
  summary: "List a brand's changes",
  description: "The brand's changes, the most recently recorded first, each with its status and figures.",
  scope: "projects",
  extension: true,
  params: IdParams,
  query: ChangeListQuery,
  success: { status: 200, description: "A page of changes.", schema: ChangeListSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, query }) => listChanges(ctx, params.id, query),
});

export const getChangeRoute = defineRoute({
  operationId: "getChange",
  method: "GET",
  path: "/projects/:id/changes/:change_id",
  tag,
  summary: "Read a change and its effect",
  description:
    "Every figure of the experiment, computed from the stored answers: the effect on visibility (the treated prompts' change minus the controls', each prompt counted once) overall and per engine with its 95% interval and p-value, the changed pages' citation rate the same way, the pre-trend check, the changed pages' crawls and referred visits against the brand's other pages, treated against control per day, the sample plan and the status. Without enough data it says how many answers are still needed, never a figure without its interval.",
  scope: "projects",
  extension: true,
  params: ChangeParams,
  success: { status: 200, description: "The change.", schema: ChangeSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => getChange(ctx, params.id, params.change_id),
});

export const deleteChangeRoute = defineRoute({
  operationId: "deleteChange",
  method: "DELETE",
  path: "/projects/:id/changes/:change_id",
  tag,
  summary: "Delete a change",
  description: "Deletes the change and the schedule collecting its samples; the answers asked stay the brand's.",
  scope: "projects",
  extension: true,
  params: ChangeParams,
  success: { status: 200, description: "What was deleted.", schema: ChangeDeletedSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => deleteChange(ctx, params.id, params.change_id),
});

export const scheduleChangeSamplesRoute = defineRoute({
  operationId: "scheduleChangeSamples",
  method: "POST",
  path: "/projects/:id/changes/:change_id/samples",
  tag,
  summary: "Schedule a change's extra samples",
  description:
    "Creates the monitoring schedule that collects the answers the plan still needs: daily at `at` (09:00 by default) in `timezone`, the treated and control prompts together on the change's engines, so both meet the same engines at the same hours. Its runs cost one credit per answer, as any run; it alerts (`experiment_result`) and switches itself off when the result is ready. Refused with VALIDATION_ERROR when already scheduled, when the result is in, or when more prompts rather than answers are needed.",
  scope: "projects",
  extension: true,
  params: ChangeParams,
  body: ChangeSamplesSchema,
  bodyOptional: true,
  success: { status: 200, description: "The change, with its schedule.", schema: ChangeSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, body }) => scheduleSamples(ctx, params.id, params.change_id, body ?? {}),
});
