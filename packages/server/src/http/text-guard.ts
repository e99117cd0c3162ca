import type { FastifyRequest } from "fastify";
import { validationError } from "../errors/api-error.ts";

function badText(value: string): boolean {
  return value.includes("\u0000") || !value.isWellFormed();
}

function findBadText(value: unknown, path: string): string | null {
  if (typeof value === "string") return badText(value) ? path : null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findBadText(item, `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const found = findBadText(item, path === "" ? key : `${path}.${key}`);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * PostgreSQL cannot store U+0000 or unpaired surrogates (`"\ud800"`), and no legitimate input
 * needs them: refuse them anywhere in a request as a validation error, on both dialects alike.
 */
export async function rejectUnstorableText(request: FastifyRequest): Promise<void> {
  for (const part of [request.params, request.query, request.body]) {
    const field = findBadText(part, "");
    if (field !== null) {
      throw validationError([
        { field: field === "" ? "body" : field, issue: "must be valid Unicode text without NUL characters" },
      ]);
    }
  }
}
