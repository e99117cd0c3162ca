import { getResult, listResults } from "../../../services/results/results.ts";
import { ResultListQuery, ResultListSchema, ResultSchema } from "../../../services/results/schemas.ts";
import { defineRoute } from "../../route.ts";
import { IdParams } from "../../schema.ts";

const tag = "Results";

export const listResultsRoute = defineRoute({
  operationId: "listResults",
  method: "GET",
  path: "/results",
  reads: "replica",
  tag,
  summary: "List scored results",
  description: "Measured answers, newest first, filtered by brand, analysis, engine and time range [from, to).",
  scope: "results",
  query: ResultListQuery,
  success: { status: 200, description: "A page of results.", schema: ResultListSchema },
  errors: ["ENGINE_NOT_ALLOWED"],
  handler: ({ ctx, query }) => listResults(ctx, query),
});

export const getResultRoute = defineRoute({
  operationId: "getResult",
  method: "GET",
  path: "/results/:id",
  reads: "replica",
  tag,
  summary: "Read a result",
  description: "One answer with its text, citations, mentions, position, sentiment and score.",
  scope: "results",
  params: IdParams,
  success: { status: 200, description: "The result.", schema: ResultSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => getResult(ctx, params.id),
});
