/**
 * A small JSON Schema → TypeScript emitter for the subset our route schemas use (objects,
 * arrays, enums, consts, type arrays for nullables, anyOf, $ref to components).
 */
type Schema = Record<string, unknown>;

const PRIMITIVES: Record<string, string> = {
  string: "string",
  integer: "number",
  number: "number",
  boolean: "boolean",
  null: "null",
};

function literal(value: unknown): string {
  return JSON.stringify(value);
}

function doc(description: unknown, indent: string): string {
  if (typeof description !== "string" || description === "") return "";
  return `${indent}/** ${description.replace(/\*\//g, "*\\/").replace(/\n/g, " ")} */\n`;
}

export function typeOf(schema: Schema, indent = "", refPrefix = ""): string {
  if (typeof schema.$ref === "string") return `${refPrefix}${schema.$ref.split("/").pop() ?? "unknown"}`;
  if ("const" in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map(literal).join(" | ");
  if (Array.isArray(schema.anyOf))
    return (schema.anyOf as Schema[]).map((s) => typeOf(s, indent, refPrefix)).join(" | ");
  if (Array.isArray(schema.type)) {
    return (schema.type as string[])
      .map((t) => (t === "null" ? "null" : typeOf({ ...schema, type: t }, indent, refPrefix)))
      .join(" | ");
  }
  switch (schema.type) {
    case "array": {
      const item = typeOf((schema.items ?? {}) as Schema, indent, refPrefix);
      return /[ |]/.test(item) ? `Array<${item}>` : `${item}[]`;
    }
    case "object":
      return objectType(schema, indent, refPrefix);
    default:
      return PRIMITIVES[String(schema.type)] ?? "unknown";
  }
}

function objectType(schema: Schema, indent: string, refPrefix: string): string {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const inner = `${indent}  `;
  const lines = Object.entries(properties).map(
    ([name, property]) =>
      `${doc(property.description, inner)}${inner}${name}${required.has(name) ? "" : "?"}: ${typeOf(property, inner, refPrefix)};`,
  );
  if (schema.additionalProperties === true) lines.push(`${inner}[key: string]: unknown;`);
  else if (typeof schema.additionalProperties === "object" && schema.additionalProperties !== null) {
    lines.push(`${inner}[key: string]: ${typeOf(schema.additionalProperties as Schema, inner, refPrefix)};`);
  }
  if (lines.length === 0) return "Record<string, never>";
  return `{\n${lines.join("\n")}\n${indent}}`;
}

export function declaration(name: string, schema: Schema): string {
  const body = typeOf(schema);
  const comment = doc(schema.description, "");
  return body.startsWith("{")
    ? `${comment}export interface ${name} ${body}\n`
    : `${comment}export type ${name} = ${body};\n`;
}
