import type { FastifyRequest } from "fastify";
import { type ErrorDetail, validationError } from "../errors/api-error.ts";

function badText(value: string): boolean {
  return value.includes("\u0000") || !value.isWellFormed();
}

/** No request this API takes nests anywhere near this deep; deeper is refused, not walked. */
const MAX_DEPTH = 32;

class TooDeep extends Error {}

function findBadText(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === "string") return badText(value) ? path : null;
  if (value === null || typeof value !== "object") return null;
  if (depth >= MAX_DEPTH) throw new TooDeep(path);
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findBadText(item, `${path}[${i}]`, depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const found = findBadText(item, path === "" ? key : `${path}.${key}`, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Where in `parts` there is text PostgreSQL cannot store (U+0000, unpaired surrogates) or nesting
 * deeper than any request needs, as the detail to refuse it with; null when there is none.
 */
export function unstorableTextIn(parts: unknown[]): ErrorDetail | null {
  for (const part of parts) {
    let field: string | null;
    try {
      field = findBadText(part, "");
    } catch (error) {
      if (!(error instanceof TooDeep)) throw error;
      // Named by its top-level field: the full path would be as long as the nesting.
      const field = error.message.split(/[.[]/)[0] || "body";
      return { field, issue: `nests deeper than ${MAX_DEPTH} levels` };
    }
    if (field !== null) {
      return { field: field === "" ? "body" : field, issue: "must be valid Unicode text without NUL characters" };
    }
  }
  return null;
}

/**
 * PostgreSQL cannot store U+0000 or unpaired surrogates (`"\ud800"`), and no legitimate input
 * needs them: refuse them anywhere in a request as a validation error, on both dialects alike.
 */
export async function rejectUnstorableText(request: FastifyRequest): Promise<void> {
  const bad = unstorableTextIn([request.params, request.query, request.body]);
  if (bad !== null) throw validationError([bad]);
}
