import Type from "typebox";
import { ERROR_CODES } from "../errors/codes.ts";
import { component, StringEnum } from "../lib/schema.ts";

const ErrorDetailSchema = component(
  "ErrorDetail",
  Type.Object(
    {
      field: Type.Optional(Type.String({ description: "Path of the offending field, e.g. `competitors[0].name`." })),
      issue: Type.String({ description: "What is wrong with it." }),
    },
    { additionalProperties: true, description: "One problem; some codes add facts such as `allowance`." },
  ),
);

export const ErrorSchema = component(
  "ErrorResponse",
  Type.Object(
    {
      error: Type.Object(
        {
          code: StringEnum(ERROR_CODES, { description: "One of the spec's error codes." }),
          message: Type.String({ description: "A sentence for the developer reading the logs." }),
          request_id: Type.String({ description: "Same as the X-Request-Id header; quote it to support." }),
          details: Type.Array(ErrorDetailSchema),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
);

export const IdParams = Type.Object(
  { id: Type.String({ maxLength: 100, description: "The resource's id." }) },
  { additionalProperties: false },
);
