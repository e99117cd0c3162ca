import { competitorSuggestions } from "../../../services/analytics/competitor-suggestions.ts";
import {
  CompetitorSuggestionsQuery,
  CompetitorSuggestionsSchema,
  SUGGESTION_SCAN_LIMIT,
} from "../../../services/analytics/suggestion-schemas.ts";
import { CompetitorInputSchema, ProjectSchema } from "../../../services/projects/schemas.ts";
import { trackCompetitor } from "../../../services/projects/track-competitor.ts";
import { defineRoute } from "../../route.ts";
import { IdParams } from "../../schema.ts";

const tag = "Analytics";

export const competitorSuggestionsRoute = defineRoute({
  operationId: "getCompetitorSuggestions",
  method: "GET",
  path: "/projects/:id/competitor-suggestions",
  tag,
  summary: "Brands the answers name that the project does not track",
  description: `Competitor discovery: brands named in the period's answers (list items, table rows, bold names, "X vs Y" or "X or Y" next to a tracked brand) that are not the brand, a competitor, one of their aliases or an exclusion phrase, merged across case and typography, counted once per answer, with their visibility, engines and average list position. Generic headings and ordinary words are left out; a brand must appear in at least 2 answers. Reads the period's most recent ${SUGGESTION_SCAN_LIMIT} answers at most (\`scanned\`, \`capped\`). Most named first.`,
  scope: "results",
  extension: true,
  params: IdParams,
  query: CompetitorSuggestionsQuery,
  success: { status: 200, description: "The suggestions.", schema: CompetitorSuggestionsSchema },
  errors: ["NOT_FOUND", "ENGINE_NOT_ALLOWED"],
  handler: ({ ctx, params, query }) => competitorSuggestions(ctx, params.id, query),
});

export const trackCompetitorRoute = defineRoute({
  operationId: "trackCompetitor",
  method: "POST",
  path: "/projects/:id/competitor-suggestions/track",
  tag,
  summary: "Start tracking a suggested brand as a competitor",
  description:
    "Appends the brand to the project's competitors through the ordinary update (same validation and limits; emits `project.updated`). A name the project already tracks is refused with VALIDATION_ERROR.",
  scope: "projects",
  extension: true,
  params: IdParams,
  body: CompetitorInputSchema,
  success: { status: 200, description: "The brand after the change.", schema: ProjectSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, body }) => trackCompetitor(ctx, params.id, body),
});
