import { listOpportunities } from "../../../services/opportunities/opportunities.ts";
import {
  OPPORTUNITY_SCAN_LIMIT,
  OPPORTUNITY_WINDOW_DAYS,
  OpportunitiesQuery,
  OpportunityListSchema,
} from "../../../services/opportunities/schemas.ts";
import { defineRoute } from "../../route.ts";
import { IdParams } from "../../schema.ts";

export const opportunitiesRoute = defineRoute({
  operationId: "listOpportunities",
  method: "GET",
  path: "/projects/:id/opportunities",
  tag: "Opportunities",
  summary: "What to do next for a brand",
  description: `A ranked, explained list computed from the last ${OPPORTUNITY_WINDOW_DAYS} days' answers (the most recent ${OPPORTUNITY_SCAN_LIMIT} at most), refreshed after every analysis and every edit of the project: answers contradicting the brand's fact sheet, answers warning against it, prompts and engines where its visibility fell significantly or competitors are named and it is not, sites cited where competitors are named and it is not, and searches engines ran whose answers never cite its site. Each carries its figures and the results it rests on.`,
  scope: "results",
  extension: true,
  params: IdParams,
  query: OpportunitiesQuery,
  success: { status: 200, description: "The opportunities, the most valuable first.", schema: OpportunityListSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, query }) => listOpportunities(ctx, params.id, query),
});
