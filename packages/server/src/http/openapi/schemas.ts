import { componentName } from "../../lib/schema.ts";

export type JsonSchema = Record<string, unknown>;

/**
 * Copies a request/response schema into OpenAPI form: every registered component met on the
 * way becomes a `$ref`, and its own schema is added to `components` once.
 */
export class ComponentCollector {
  readonly schemas: Record<string, JsonSchema> = {};

  ref(schema: object): JsonSchema {
    const name = componentName(schema);
    if (name === undefined) return this.#copy(schema) as JsonSchema;
    if (!(name in this.schemas)) {
      this.schemas[name] = {}; // placeholder first: guards against cycles
      this.schemas[name] = this.#copy(schema, true) as JsonSchema;
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  #copy(value: unknown, isComponentRoot = false): unknown {
    if (Array.isArray(value)) return value.map((item) => this.#copy(item));
    if (value === null || typeof value !== "object") return value;
    if (!isComponentRoot && componentName(value) !== undefined) return this.ref(value);
    const out: JsonSchema = {};
    for (const [key, child] of Object.entries(value)) {
      // `default` and `examples` are data, not schemas: copied as they are.
      out[key] = key === "default" || key === "examples" || key === "enum" ? child : this.#copy(child);
    }
    return out;
  }
}
