import Type from "typebox";
import { component, Nullable, StringEnum, Timestamp } from "../../lib/schema.ts";
import { figure, VisibilitySchema } from "../measurement/schemas.ts";

export const BreakdownQuery = Type.Object(
  {
    by: StringEnum(["persona", "country"] as const, {
      description: "`persona`: one group per persona the answers were asked under; `country`: per country.",
    }),
    from: Type.Optional(Type.String({ maxLength: 40, description: "ISO 8601; 30 days before `to` by default." })),
    to: Type.Optional(Type.String({ maxLength: 40, description: "ISO 8601; now by default." })),
    engine: Type.Optional(Type.String({ maxLength: 64, description: "Only this engine's answers." })),
  },
  { additionalProperties: false },
);

export const BreakdownSchema = component(
  "Breakdown",
  Type.Object(
    {
      by: StringEnum(["persona", "country"] as const),
      from: Timestamp,
      to: Timestamp,
      engine: Nullable(Type.String()),
      answers: Type.Integer({ minimum: 0, description: "Single answers that succeeded in the period." }),
      visibility: VisibilitySchema,
      groups: Type.Array(
        Type.Object(
          {
            key: Nullable(Type.String({ description: "The persona's id or the country's code; null: none." })),
            label: Type.String({ description: "The persona's name or the country's name, as people read it." }),
            answers: Type.Integer({ minimum: 0 }),
            visibility: VisibilitySchema,
            citation_rate: VisibilitySchema,
            average_position: Nullable(Type.Number({ description: figure("average_position") })),
            sentiment: Nullable(Type.Number({ description: figure("sentiment") })),
            visibility_score: Nullable(Type.Number({ description: figure("visibility_score") })),
            against_all: StringEnum(["below", "above", "overlap"] as const, {
              description:
                "How the group's visibility interval sits against all answers': `below` or `above` when they do not overlap (a real difference), else `overlap`.",
            }),
          },
          { additionalProperties: false },
        ),
      ),
    },
    {
      additionalProperties: false,
      description: "The brand's figures per persona or per country, counted from the stored answers (issue 29).",
    },
  ),
);
