import SerializerSelector from "@fastify/fast-json-stringify-compiler";
import type { ErrorObject } from "ajv";
import type { FastifySchemaCompiler } from "fastify";
import { compileSchema } from "../services/validate.ts";

// Bodies are JSON and never coerced. Query strings and path parameters are text by nature, so they
// are coerced, but strictly and by us (`coerceText`): Ajv's own coercion takes anything `Number()`
// accepts, so "Infinity", "1e2", "0x10" and " 5" would become numbers.

/** Plain decimal digits, nothing else: no sign, exponent, radix prefix, point or whitespace. */
const DECIMAL = /^[0-9]{1,16}$/;

interface TextSchema {
  type?: string | string[];
  properties?: Record<string, TextSchema>;
}

function typesOf(schema: TextSchema | undefined): string[] {
  const type = schema?.type;
  return type === undefined ? [] : Array.isArray(type) ? type : [type];
}

/** One text value as the type its schema asks for, or unchanged (and then refused by Ajv). */
function coerceValue(schema: TextSchema | undefined, value: unknown): unknown {
  const types = typesOf(schema);
  if (types.includes("array")) return Array.isArray(value) ? value : [value];
  // A repeated parameter (`?limit=5&limit=6`) is an array: one value is taken as itself.
  const single = Array.isArray(value) && value.length === 1 ? value[0] : value;
  if (typeof single !== "string") return single;
  if ((types.includes("integer") || types.includes("number")) && DECIMAL.test(single)) {
    const number = Number(single);
    return Number.isSafeInteger(number) ? number : single;
  }
  if (types.includes("boolean") && (single === "true" || single === "false")) return single === "true";
  return single;
}

/** Coerces a query string's or path's values in place, by the properties of its object schema. */
function coerceText(schema: TextSchema, data: unknown): void {
  if (data === null || typeof data !== "object" || schema.properties === undefined) return;
  const record = data as Record<string, unknown>;
  for (const [name, value] of Object.entries(record)) {
    // Unknown names are left for Ajv to refuse (`additionalProperties: false`).
    if (Object.hasOwn(schema.properties, name)) record[name] = coerceValue(schema.properties[name], value);
  }
}

/**
 * Each route's validators, compiled on the route's first request rather than at start-up: about
 * 200 ms of every start for 90 routes (issue 16), most of which a process may never serve.
 */
export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const text = httpPart !== "body";
  let validate: ReturnType<typeof compileSchema> | null = null;
  const validator = (data: unknown): boolean => {
    validate ??= compileSchema(schema);
    if (text) coerceText(schema as TextSchema, data);
    const valid = validate(data);
    validator.errors = validate.errors;
    return valid;
  };
  validator.errors = null as ErrorObject[] | null | undefined;
  return validator;
};

const serializerFactory = SerializerSelector();

/**
 * Fastify's own serializers (fast-json-stringify, as its default compiler builds them), each
 * compiled on its route's first answer rather than at start-up (another 250 ms of every start).
 */
export const lazySerializers: SerializerSelector.SerializerFactory = (externalSchemas, options) => {
  const build = serializerFactory(externalSchemas, options);
  return (route) => {
    let serialize: SerializerSelector.Serializer | null = null;
    return (data) => {
      serialize ??= build(route);
      return serialize(data);
    };
  };
};
