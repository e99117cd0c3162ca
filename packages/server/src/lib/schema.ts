import Type, { type Static, type TSchema } from "typebox";

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

/** Issues to report for a `pattern` that failed, by pattern, instead of the pattern itself. */
const patternIssues = new Map<string, string>();

export function patternIssue(pattern: string): string | undefined {
  return patternIssues.get(pattern);
}

/** A string with a pattern, and the words to say when a value does not match it. */
export function Patterned(pattern: string, issue: string, options: { description?: string; maxLength?: number } = {}) {
  patternIssues.set(pattern, issue);
  return Type.String({ minLength: 1, ...options, pattern });
}

/**
 * An object of any keys whose values all have one schema, as `{"type": "object",
 * "additionalProperties": …}` (what OpenAPI tools read best), typed as a `Record`.
 */
export function Dictionary<T extends TSchema>(
  values: T,
  options: { description?: string; maxProperties?: number } = {},
) {
  return Type.Unsafe<Record<string, Static<T>>>({
    type: "object",
    properties: {},
    required: [],
    additionalProperties: values,
    ...options,
  });
}
