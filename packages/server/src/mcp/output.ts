import fastJson from "fast-json-stringify";
import type { TSchema } from "typebox";

type Serialize = (value: unknown) => string;

const serializers = new WeakMap<object, Serialize>();

/**
 * `value` as JSON through `schema`, with the serializer Fastify compiles for a route's response
 * (fast-json-stringify, no options): a tool answers exactly the object its REST route does, and a
 * field no schema names (a raw column, a secret) never leaves, whichever transport carries it.
 */
export function serializeThrough(schema: TSchema, value: unknown): string {
  let serialize = serializers.get(schema);
  if (serialize === undefined) {
    serialize = fastJson(schema as fastJson.Schema) as Serialize;
    serializers.set(schema, serialize);
  }
  return serialize(value);
}
