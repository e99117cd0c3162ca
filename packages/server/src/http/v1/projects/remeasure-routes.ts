import { getRemeasure, listRemeasures, startRemeasure } from "../../../services/remeasure/remeasures.ts";
import {
  RemeasureCreateSchema,
  RemeasureListQuery,
  RemeasureListSchema,
  RemeasureParams,
  RemeasureSchema,
} from "../../../services/remeasure/schemas.ts";
import { defineRoute } from "../../route.ts";
import { IdParams } from "../../schema.ts";

const tag = "Projects";

export const remeasureProjectRoute = defineRoute({
  operationId: "remeasureProject",
  method: "POST",
  path: "/projects/:id/remeasure",
  tag,
  summary: "Re-measure a brand's stored answers",
  description:
    "Queues a job that measures the brand's stored answers again, with the current measurement (`score_version`) and the brand's current settings (aliases, competitors, exclusion phrases), and corrects its results, analyses' summaries and analytics. Optionally only the answers stored in `[from, to)`. One at a time per brand: while one is queued or running, another is refused with `VALIDATION_ERROR`. Costs no credits, except judge calls when the server has a judge.",
  scope: "projects",
  extension: true,
  params: IdParams,
  body: RemeasureCreateSchema,
  bodyOptional: true,
  success: { status: 202, description: "The re-measure, queued.", schema: RemeasureSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, body }) => startRemeasure(ctx, params.id, body),
});

export const listRemeasuresRoute = defineRoute({
  operationId: "listRemeasures",
  method: "GET",
  path: "/projects/:id/remeasure",
  tag,
  summary: "List a brand's re-measures",
  description: "The brand's re-measures, newest first, with their progress.",
  scope: "projects",
  extension: true,
  params: IdParams,
  query: RemeasureListQuery,
  success: { status: 200, description: "A page of re-measures.", schema: RemeasureListSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, query }) => listRemeasures(ctx, params.id, query),
});

export const getRemeasureRoute = defineRoute({
  operationId: "getRemeasure",
  method: "GET",
  path: "/projects/:id/remeasure/:remeasure_id",
  tag,
  summary: "Read a re-measure",
  description: "One re-measure of the brand: its status and progress (`done` of `total`).",
  scope: "projects",
  extension: true,
  params: RemeasureParams,
  success: { status: 200, description: "The re-measure.", schema: RemeasureSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => getRemeasure(ctx, params.id, params.remeasure_id),
});
