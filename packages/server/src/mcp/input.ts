import type { TSchema } from "typebox";
import { type ErrorDetail, validationError } from "../errors/api-error.ts";
import { unstorableTextIn } from "../http/text-guard.ts";
import { compileSchema, validationDetails } from "../services/validate.ts";
import { type Part, partsOf, type Tool } from "./tool.ts";

type JsonSchema = Record<string, unknown>;

/** A JSON Schema of an object, as the protocol wants a tool's input and output described. */
export interface ObjectJsonSchema {
  type: "object";
  properties?: Record<string, object>;
  required?: string[];
  [keyword: string]: unknown;
}

interface ObjectSchema {
  properties?: Record<string, unknown>;
  required?: string[];
}

/** A schema as plain JSON, as the protocol carries it. */
function plain(schema: unknown): JsonSchema {
  return JSON.parse(JSON.stringify(schema)) as JsonSchema;
}

/** A response schema as a tool's `outputSchema` (the protocol takes objects only; every route answers one). */
export function publishedOutputSchema(schema: TSchema): ObjectJsonSchema {
  const copy = plain(schema);
  if (copy.type !== "object") throw new Error("an MCP tool's output schema must describe an object");
  return { ...copy, type: "object" };
}

/** The argument name a part's property is published under. */
function argumentName(tool: Tool, part: Part, name: string): string {
  return part === "params" ? (tool.rename?.[name]?.as ?? name) : name;
}

/**
 * The tool's `inputSchema`: the properties of every part it takes (path parameters under their
 * published names), in one object that allows nothing else, as the REST route does per part.
 */
export function publishedInputSchema(tool: Tool): ObjectJsonSchema {
  const properties: Record<string, object> = {};
  const required: string[] = [];
  for (const [part, schema] of partsOf(tool)) {
    const object = schema as ObjectSchema;
    for (const [name, property] of Object.entries(object.properties ?? {})) {
      const renamed = part === "params" ? tool.rename?.[name] : undefined;
      properties[argumentName(tool, part, name)] =
        renamed === undefined ? plain(property) : { ...plain(property), description: renamed.description };
    }
    for (const name of object.required ?? []) required.push(argumentName(tool, part, name));
  }
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/** Which part an argument belongs to, and its name there; an unknown one goes where it is refused. */
function placeOf(tool: Tool, argument: string): [Part, string] {
  const parts = partsOf(tool);
  for (const [part, schema] of parts) {
    for (const name of Object.keys((schema as ObjectSchema).properties ?? {})) {
      if (argumentName(tool, part, name) === argument) return [part, name];
    }
  }
  const last = parts.at(-1)?.[0] ?? "body";
  return [last, argument];
}

/** A detail's field under the argument's published name (`id` → `project_id`). */
function published(tool: Tool, part: Part, detail: ErrorDetail): ErrorDetail {
  const field = detail.field;
  if (part !== "params" || field === undefined) return detail;
  const head = /^[^.[]+/.exec(field)?.[0] ?? field;
  const renamed = tool.rename?.[head]?.as;
  return renamed === undefined ? detail : { ...detail, field: renamed + field.slice(head.length) };
}

/**
 * The tool's arguments, split into the parts of its route's request and checked by each part's
 * own schema with the API's validator (defaults filled in, nothing coerced: arguments are JSON),
 * after the text check every request passes. Every problem of every part is one VALIDATION_ERROR.
 */
export function parseToolInput(tool: Tool, args: Record<string, unknown> | undefined): Record<Part, unknown> {
  const bad = unstorableTextIn([args ?? {}]);
  if (bad !== null) throw validationError([bad]);
  const split: Record<Part, [string, unknown][]> = { params: [], query: [], body: [] };
  for (const [argument, value] of Object.entries(args ?? {})) {
    const [part, name] = placeOf(tool, argument);
    split[part].push([name, value]);
  }
  const details: ErrorDetail[] = [];
  const input: Record<Part, unknown> = { params: undefined, query: undefined, body: undefined };
  for (const [part, schema] of partsOf(tool)) {
    // Own keys whatever their names: an argument `__proto__` is refused as unknown, not made the prototype.
    const value = Object.fromEntries(split[part]);
    const validate = compileSchema(schema as TSchema);
    if (!validate(value)) {
      for (const detail of validationDetails(validate.errors ?? [], "body"))
        details.push(published(tool, part, detail));
    }
    input[part] = value;
  }
  if (details.length > 0) throw validationError(details);
  // A part of the route's request the tool does not publish is what HTTP makes of it when left
  // out: an empty object with its defaults (`get_report` is the report as JSON, no `format`).
  for (const part of ["params", "query", "body"] as const) {
    const schema = tool.route[part];
    if (input[part] !== undefined || schema === undefined) continue;
    const empty = {};
    compileSchema(schema as TSchema)(empty);
    input[part] = empty;
  }
  return input;
}
