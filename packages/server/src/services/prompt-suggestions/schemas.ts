import Type from "typebox";
import { component } from "../../lib/schema.ts";
import { SUGGESTION_INSTRUCTION_VERSION } from "./instruction.ts";

const MAX_SUGGESTIONS = 20;

export const PromptSuggestionsRequestSchema = component(
  "PromptSuggestionsRequest",
  Type.Object(
    {
      engine: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 40,
          description: "The engine asked; `sandbox` (offline, deterministic) by default. Must be in the plan.",
        }),
      ),
      count: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: MAX_SUGGESTIONS,
          default: 10,
          description: `How many questions at most (1–${MAX_SUGGESTIONS}).`,
        }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const PromptSuggestionsSchema = component(
  "PromptSuggestions",
  Type.Object(
    {
      object: Type.Literal("list"),
      engine: Type.String({ description: "The engine that was asked." }),
      instruction_version: Type.String({
        description: `Version of the fixed instruction the engine was sent (now ${SUGGESTION_INSTRUCTION_VERSION}).`,
      }),
      data: Type.Array(
        Type.Object(
          {
            prompt: Type.String({ description: "A question a buyer would ask; add it to `prompts` to track it." }),
            tags: Type.Array(Type.String(), {
              description:
                "Tags to give it, e.g. its funnel stage (`funnel:awareness`, `funnel:consideration`, `funnel:decision`).",
            }),
          },
          { additionalProperties: false },
        ),
        { maxItems: MAX_SUGGESTIONS },
      ),
    },
    {
      additionalProperties: false,
      description:
        "Questions a buyer in the brand's category would ask, none naming the brand and none tracked already.",
    },
  ),
);
