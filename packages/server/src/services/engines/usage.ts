import type { AnswerUsage } from "./types.ts";

/** A count the vendor reported, or null when the field is missing or not a count. */
export function reportedCount(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
}

/** A sum of the counts the vendor reported; null when it reported none of them. */
export function sumOfCounts(...values: unknown[]): number | null {
  const counts = values.map(reportedCount).filter((n): n is number => n !== null);
  return counts.length === 0 ? null : counts.reduce((a, b) => a + b, 0);
}

/** An amount of USD the vendor reported, or null. */
export function reportedCost(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null;
}

export function usageOf(fields: Partial<AnswerUsage>): AnswerUsage {
  return {
    inputTokens: fields.inputTokens ?? null,
    outputTokens: fields.outputTokens ?? null,
    searchCalls: fields.searchCalls ?? 0,
    costUsd: fields.costUsd ?? null,
  };
}
