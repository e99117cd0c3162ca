import {
  PromptSuggestionsRequestSchema,
  PromptSuggestionsSchema,
} from "../../../services/prompt-suggestions/schemas.ts";
import { suggestPrompts } from "../../../services/prompt-suggestions/suggest.ts";
import { defineRoute } from "../../route.ts";
import { IdParams } from "../../schema.ts";

export const suggestPromptsRoute = defineRoute({
  operationId: "suggestPrompts",
  method: "POST",
  path: "/projects/:id/prompt-suggestions",
  tag: "Projects",
  summary: "Suggest prompts to track",
  description:
    "Asks an engine (`sandbox` by default, offline and deterministic) for questions a buyer looking for the brand's `category` would ask an AI assistant, each with its funnel stage as a tag. The engine is sent a fixed, versioned instruction built from the category, the competitors' names, the language, the country and the prompts already tracked, never the brand's name, aliases or domains; questions that name the brand or are tracked already are left out. Nothing is stored: add the ones to track to `prompts` (and their tags to `prompt_tags`) with `PATCH /v1/projects/:id`. Needs the project's `category`. Costs one credit, given back if the engine fails.",
  scope: "projects",
  extension: true,
  params: IdParams,
  body: PromptSuggestionsRequestSchema,
  bodyOptional: true,
  success: { status: 200, description: "The suggested questions.", schema: PromptSuggestionsSchema },
  errors: ["NOT_FOUND", "ENGINE_NOT_ALLOWED", "ENGINE_FAILURE", "BILLING_LIMIT_EXCEEDED", "BILLING_UNAVAILABLE"],
  handler: ({ ctx, params, body }) => suggestPrompts(ctx, params.id, body),
});
