import Type, { type Static, type TSchema } from "typebox";
import { ERROR_CODES } from "../errors/codes.ts";
import { ANALYSIS_LIMITS } from "../services/analyses/types.ts";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../services/pagination.ts";
import { PROJECT_LIMITS } from "../services/projects/types.ts";

/**
 * Schemas registered here become named components of the OpenAPI document (and types of the
 * SDK) instead of being inlined: the registry maps the schema object itself to its name.
 */
const componentNames = new Map<object, string>();

export function component<T extends TSchema>(name: string, schema: T): T {
  componentNames.set(schema, name);
  return schema;
}

export function componentName(schema: object): string | undefined {
  return componentNames.get(schema);
}

/** A string from a fixed list, as a JSON Schema `enum` (clearer errors and docs than anyOf). */
export function StringEnum<const T extends readonly string[]>(values: T, options: { description?: string } = {}) {
  return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}

/** A nullable primitive as a type array, `{"type": ["string", "null"]}`, valid OpenAPI 3.1. */
export function Nullable<T extends TSchema>(schema: T) {
  const { type, ...rest } = schema as unknown as { type: string } & Record<string, unknown>;
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, "null"] });
}

export const Timestamp = Type.String({ format: "date-time", description: "ISO 8601 UTC timestamp." });

export const ErrorDetailSchema = component(
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

/** The list envelope every collection endpoint returns. */
export function ListOf<T extends TSchema>(name: string, item: T) {
  return component(
    name,
    Type.Object(
      {
        data: Type.Array(item),
        has_more: Type.Boolean({ description: "Whether another page follows this one." }),
        next_cursor: Nullable(
          Type.String({ description: "Pass as `cursor` to get the next page; null on the last page." }),
        ),
      },
      { additionalProperties: false },
    ),
  );
}

/** Engines a request picks for a run; which names exist (custom engines too) the service checks. */
export function EngineList(description: string) {
  return Type.Array(Type.String({ maxLength: 40 }), { minItems: 1, maxItems: 32, description });
}

/** Prompts a request asks in a run, as long and as many as a project may track. */
export function PromptList(description: string) {
  return Type.Array(Type.String({ minLength: 1, maxLength: PROJECT_LIMITS.promptLength }), {
    minItems: 1,
    maxItems: ANALYSIS_LIMITS.prompts,
    description,
  });
}

export const PageQuery = {
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE_SIZE,
      default: DEFAULT_PAGE_SIZE,
      description: `Page size, 1 to ${MAX_PAGE_SIZE}.`,
    }),
  ),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: "The `next_cursor` of the previous page." })),
};

export const IdParams = Type.Object(
  { id: Type.String({ maxLength: 100, description: "The resource's id." }) },
  { additionalProperties: false },
);
