import Type, { type TSchema } from "typebox";
import { component, Nullable, StringEnum } from "../../lib/schema.ts";
import { FUNNEL_STAGES } from "../prompt-suggestions/instruction.ts";

export const BrandSuggestionRequestSchema = component(
  "BrandSuggestionRequest",
  Type.Object(
    {
      website: Type.String({
        minLength: 1,
        maxLength: 2000,
        description: "The brand's website, as people type it: `acme.com`, `https://www.acme.com/en`.",
      }),
      engine: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 40,
          description:
            "The engine asked for competitors and prompts; `sandbox` (offline, simulated, deterministic) by default. Must be in the plan.",
        }),
      ),
    },
    { additionalProperties: false },
  ),
);

const SOURCE = Type.String({
  description:
    "Where it came from: the URL of the page it was read on, `sandbox` (simulated by the offline sandbox, not a real engine's answer), the name of the engine that was asked, or `answers` (the brand's stored answers).",
});
const DETAIL = Type.String({
  description: "What was read there: `og:site_name`, the sentence on the page, `simulated market`…",
});

function suggested<T extends TSchema>(value: T) {
  return Type.Object({ value, source: SOURCE, detail: DETAIL }, { additionalProperties: false });
}

export const BrandSuggestionSchema = component(
  "BrandSuggestion",
  Type.Object(
    {
      object: Type.Literal("brand_suggestion"),
      website: Type.String({ description: "The address that was read (after redirects)." }),
      engine: Type.String({ description: "The engine whose suggestions are included (`sandbox` when simulated)." }),
      pages: Type.Array(
        Type.Object(
          {
            url: Type.String(),
            read: Type.Boolean(),
            reason: Type.Optional(Type.String({ description: "Why it was not read." })),
          },
          { additionalProperties: false },
        ),
        { description: "The pages asked for, in order, robots.txt included." },
      ),
      name: Nullable(suggested(Type.String())),
      aliases: Type.Array(suggested(Type.String())),
      domains: Type.Array(suggested(Type.String()), { description: "The first is the primary domain." }),
      category: Nullable(suggested(Type.String())),
      language: Nullable(suggested(Type.String())),
      country: Nullable(suggested(Type.String())),
      facts: Type.Object(
        {
          founded_year: Type.Optional(suggested(Type.Integer())),
          headquarters: Type.Optional(suggested(Type.String())),
          starting_price: Type.Optional(
            suggested(
              Type.Object(
                {
                  amount: Type.Number(),
                  currency: Type.String(),
                  period: Type.Optional(StringEnum(["month", "year", "once"] as const)),
                },
                { additionalProperties: false },
              ),
            ),
          ),
          free_plan: Type.Optional(suggested(Type.Boolean())),
          features: Type.Optional(Type.Array(suggested(Type.String()))),
        },
        { additionalProperties: false, description: "The fact sheet the pages state (`facts` of a project)." },
      ),
      competitors: Type.Array(suggested(Type.String()), { maxItems: 20 }),
      prompts: Type.Array(
        Type.Object(
          {
            value: Type.String(),
            source: SOURCE,
            detail: DETAIL,
            stage: Nullable(StringEnum(FUNNEL_STAGES)),
            tags: Type.Array(Type.String(), { description: "`funnel:<stage>` when the stage is known." }),
          },
          { additionalProperties: false },
        ),
        { maxItems: 20 },
      ),
      notices: Type.Array(Type.String(), {
        description: "What could not be suggested and why (an engine that failed, no category found…).",
      }),
    },
    {
      additionalProperties: false,
      description:
        "A proposed brand, read from its website: every field for the person adding it to confirm or edit. Nothing is stored.",
    },
  ),
);
