import Type from "typebox";
import { component, Dictionary, Nullable, StringEnum, Timestamp } from "../../lib/schema.ts";
import { ProportionSchema } from "../measurement/schemas.ts";
import { TagQuery } from "../projects/schemas.ts";

/** At most this many answers of the period are read, the most recent first. */
export const SUGGESTION_SCAN_LIMIT = 5_000;

export const CompetitorSuggestionsQuery = Type.Object(
  {
    from: Type.Optional(
      Type.String({
        maxLength: 40,
        description: "Start (ISO 8601), its UTC day included; 30 days before `to` by default.",
      }),
    ),
    to: Type.Optional(
      Type.String({ maxLength: 40, description: "End (ISO 8601), exclusive at midnight; now by default." }),
    ),
    engine: Type.Optional(Type.String({ maxLength: 40, description: "Only this engine's answers." })),
    tag: Type.Optional(TagQuery),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, default: 20, description: "How many brands (most named first)." }),
    ),
  },
  { additionalProperties: false },
);

export const CompetitorSuggestionsSchema = component(
  "CompetitorSuggestions",
  Type.Object(
    {
      object: Type.Literal("competitor_suggestions"),
      from: Timestamp,
      to: Timestamp,
      scanned: Type.Integer({
        minimum: 0,
        description: `Successful answers read: the period's, the most recent ${SUGGESTION_SCAN_LIMIT} at most.`,
      }),
      capped: Type.Boolean({ description: "Whether the period had more answers than were read." }),
      data: Type.Array(
        Type.Object(
          {
            name: Type.String({ description: "The brand, in its most common spelling." }),
            answers: Type.Integer({ minimum: 2, description: "Answers naming it (case and typography ignored)." }),
            visibility: ProportionSchema,
            engines: Dictionary(Type.Integer({ minimum: 1 }), { description: "Answers naming it, per engine." }),
            average_position: Nullable(
              Type.Number({ minimum: 1, description: "Its average place in the lists that name it." }),
            ),
            found_in: Type.Array(StringEnum(["list", "table", "bold", "comparison"] as const), {
              description: "Where answers named it.",
            }),
            examples: Type.Array(Type.String(), { maxItems: 2, description: "Results naming it, most recent first." }),
          },
          { additionalProperties: false },
        ),
        { description: "The most named first." },
      ),
    },
    {
      additionalProperties: false,
      description: "Brands the period's answers name that the project does not track yet.",
    },
  ),
);
