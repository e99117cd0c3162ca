import { escapeHtml, inlineMarkdown } from "./markdown.ts";

type Schema = Record<string, unknown>;

export interface FieldRow {
  path: string;
  type: string;
  required: boolean;
  notes: string;
}

function resolve(schema: Schema, components: Record<string, Schema>): Schema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  return components[ref.replace("#/components/schemas/", "")] ?? schema;
}

function typeLabel(schema: Schema, components: Record<string, Schema>): string {
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.replace("#/components/schemas/", "");
    if (name in components) return name;
  }
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants)) return variants.map((v) => typeLabel(v as Schema, components)).join(" | ");
  const s = resolve(schema, components);
  if ("const" in s) return JSON.stringify(s.const);
  const type = Array.isArray(s.type) ? s.type.join(" | ") : String(s.type ?? "any");
  if (s.type === "array" && typeof s.items === "object" && s.items !== null) {
    return `${typeLabel(s.items as Schema, components)}[]`;
  }
  if (typeof s.format === "string") return `${type} (${s.format})`;
  return type;
}

function constraints(s: Schema): string[] {
  const notes: string[] = [];
  if (Array.isArray(s.enum)) notes.push(`One of ${s.enum.map((v) => `\`${String(v)}\``).join(", ")}.`);
  if (typeof s.minimum === "number" && typeof s.maximum === "number") notes.push(`${s.minimum} to ${s.maximum}.`);
  if (typeof s.maxLength === "number") notes.push(`At most ${s.maxLength} characters.`);
  if (typeof s.maxItems === "number") notes.push(`At most ${s.maxItems} items.`);
  if (s.default !== undefined) notes.push(`Default \`${JSON.stringify(s.default)}\`.`);
  return notes;
}

/** Flattens an object schema into one row per field, nested fields as `a.b` and `a[].b`. */
export function fieldRows(schema: Schema, components: Record<string, Schema>, prefix = "", depth = 0): FieldRow[] {
  const s = resolve(schema, components);
  const properties = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set((s.required ?? []) as string[]);
  const rows: FieldRow[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const p = resolve(property, components);
    const path = `${prefix}${name}`;
    const description = typeof p.description === "string" ? p.description : "";
    rows.push({
      path,
      type: typeLabel(property, components),
      required: required.has(name),
      notes: [description, ...constraints(p)].filter(Boolean).join(" "),
    });
    if (depth > 3) continue;
    if (p.type === "object") rows.push(...fieldRows(p, components, `${path}.`, depth + 1));
    if (p.type === "array" && typeof p.items === "object" && p.items !== null) {
      const items = resolve(p.items as Schema, components);
      if (items.type === "object") rows.push(...fieldRows(items, components, `${path}[].`, depth + 1));
    }
  }
  return rows;
}

export function fieldTable(rows: FieldRow[]): string {
  if (rows.length === 0) return "";
  const body = rows
    .map(
      (row) =>
        `<tr><td><code>${escapeHtml(row.path)}</code>${row.required ? ' <span class="req">required</span>' : ""}</td>` +
        `<td><code>${escapeHtml(row.type)}</code></td><td>${inlineMarkdown(row.notes)}</td></tr>`,
    )
    .join("");
  return `<table><thead><tr><th>Field</th><th>Type</th><th>Notes</th></tr></thead><tbody>${body}</tbody></table>`;
}
