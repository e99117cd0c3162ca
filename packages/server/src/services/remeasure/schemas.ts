import Type from "typebox";
import { component, ListOf, Nullable, StringEnum, Timestamp } from "../../lib/schema.ts";
import { PageQuery } from "../schemas.ts";

export const RemeasureSchema = component(
  "Remeasure",
  Type.Object(
    {
      id: Type.String({ description: "Prefixed `rem_`." }),
      object: Type.Literal("remeasure"),
      project_id: Type.String(),
      status: StringEnum(["queued", "running", "completed", "failed"] as const, {
        description: "queued → running → completed, or failed (with `error`) after the last attempt.",
      }),
      from: Nullable(Type.String({ format: "date-time", description: "Answers stored at or after this time." })),
      to: Nullable(Type.String({ format: "date-time", description: "Answers stored before this time." })),
      total: Type.Integer({ minimum: 0, description: "Successful answers to re-measure." }),
      done: Type.Integer({ minimum: 0, description: "Answers re-measured so far." }),
      changed: Type.Integer({ minimum: 0, description: "Answers whose measure came out different." }),
      score_version: Type.String({ description: "The version of the measurement the answers are re-measured with." }),
      error: Nullable(Type.String({ description: "Why it failed." })),
      created_at: Timestamp,
      started_at: Nullable(Timestamp),
      completed_at: Nullable(Timestamp),
    },
    {
      additionalProperties: false,
      description:
        "A re-measure of a brand's stored answers under the current measurement and the brand's current settings.",
    },
  ),
);

export const RemeasureCreateSchema = component(
  "RemeasureCreate",
  Type.Object(
    {
      from: Type.Optional(
        Type.String({ maxLength: 40, description: "Only answers stored at or after this time (ISO 8601)." }),
      ),
      to: Type.Optional(
        Type.String({ maxLength: 40, description: "Only answers stored before this time (ISO 8601): [from, to)." }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const RemeasureParams = Type.Object(
  {
    id: Type.String({ maxLength: 100, description: "The brand's id." }),
    remeasure_id: Type.String({ maxLength: 100, description: "The re-measure's id." }),
  },
  { additionalProperties: false },
);

export const RemeasureListSchema = ListOf("RemeasureList", RemeasureSchema);

export const RemeasureListQuery = Type.Object(PageQuery, { additionalProperties: false });
