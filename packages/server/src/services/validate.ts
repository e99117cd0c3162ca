import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { Static, TSchema } from "typebox";
import { type JsonColumn, jsonColumn } from "../db/json-column.ts";
import { type ErrorDetail, validationError } from "../errors/api-error.ts";
import { patternIssue } from "../lib/schema.ts";

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * One validator for every schema, whoever validates: the HTTP layer (bodies, query strings, paths)
 * and services whose callers are not HTTP (the CLI, the scheduler, the dashboard). JSON is never
 * coerced: a number sent for a string is a client bug. Query strings are coerced first, strictly,
 * by the HTTP layer.
 */
const ajv = addFormats(
  new Ajv({ allErrors: true, removeAdditional: false, useDefaults: true, strict: true, allowUnionTypes: true }),
);

const compiled = new WeakMap<object, ValidateFunction>();

/** The schema's validator, compiled once. */
export function compileSchema(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/**
 * `value` checked against `schema` (defaults filled in), or VALIDATION_ERROR with every problem,
 * in the same words as the API's.
 */
export function checkInput<T extends TSchema>(schema: T, value: unknown): Static<T> {
  const validate = compileSchema(schema);
  if (!validate(value)) throw validationError(validationDetails(validate.errors ?? [], "body"));
  return value as Static<T>;
}

/** `/competitors/0/name` → `competitors[0].name`. */
function fieldPath(pointer: string, extra?: string): string | undefined {
  const parts = pointer
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (extra !== undefined) parts.push(extra);
  let path = "";
  for (const part of parts) {
    if (/^\d+$/.test(part)) path += `[${part}]`;
    else path += path === "" ? part : `.${part}`;
  }
  return path === "" ? undefined : path;
}

function describe(error: ErrorObject): { field: string | undefined; issue: string } {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return { field: fieldPath(error.instancePath, String(params.missingProperty)), issue: "is required" };
    case "additionalProperties":
      return {
        field: fieldPath(error.instancePath, String(params.additionalProperty)),
        issue: "is not a known field",
      };
    case "type": {
      const type = Array.isArray(params.type) ? params.type.join(" or ") : String(params.type);
      return { field: fieldPath(error.instancePath), issue: `must be ${type === "null" ? "null" : `of type ${type}`}` };
    }
    case "pattern":
      return {
        field: fieldPath(error.instancePath),
        issue: patternIssue(String(params.pattern)) ?? `must match the pattern ${String(params.pattern)}`,
      };
    case "enum":
      return {
        field: fieldPath(error.instancePath),
        issue: `must be one of ${(params.allowedValues as unknown[]).map(String).join(", ")}`,
      };
    default:
      return { field: fieldPath(error.instancePath), issue: error.message ?? "is invalid" };
  }
}

/**
 * Ajv's errors as the API's `details`: one entry per field and problem. For a union that failed,
 * the branch whose type matched explains the problem best; if none matched, the allowed types
 * are listed together.
 */
export function validationDetails(errors: ErrorObject[], context: string | undefined): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  const add = (detail: { field: string | undefined; issue: string }) => {
    const field = detail.field ?? (context === "body" ? undefined : context);
    const key = `${field}\u0000${detail.issue}`;
    if (seen.has(key)) return;
    seen.add(key);
    details.push(field === undefined ? { issue: detail.issue } : { field, issue: detail.issue });
  };
  const unions = new Set(
    errors.filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf").map((e) => e.instancePath),
  );
  for (const path of unions) {
    const branch = errors.filter((e) => e.instancePath === path && e.keyword !== "anyOf" && e.keyword !== "oneOf");
    const meaningful = branch.filter((e) => e.keyword !== "type");
    if (meaningful.length > 0) {
      for (const error of meaningful) add(describe(error));
    } else {
      const types = branch.map((e) => String((e.params as { type: unknown }).type));
      add({ field: fieldPath(path), issue: `must be of type ${[...new Set(types)].join(" or ")}` });
    }
  }
  for (const error of errors) {
    if (unions.has(error.instancePath) || error.keyword === "anyOf" || error.keyword === "oneOf") continue;
    add(describe(error));
  }
  return details;
}

/**
 * A JSON column whose values have `schema`'s shape: checked on every read by the same validator
 * that checks requests (`column` names it in errors, e.g. `results.measure`).
 */
export function storedAs<T extends TSchema>(column: string, schema: T): JsonColumn<Static<T>> {
  // Compiled on the column's first read, not when the module loads: the process starts without
  // compiling every stored shape (about 400 ms of a start-up, issue 16), most of which a given
  // process (an API serving a few routes, a CLI command) never reads.
  let validate: ReturnType<typeof compileSchema> | null = null;
  return jsonColumn<Static<T>>(column, (value) => {
    validate ??= compileSchema(schema);
    return validate(value) ? null : ajv.errorsText(validate.errors, { dataVar: column });
  });
}
