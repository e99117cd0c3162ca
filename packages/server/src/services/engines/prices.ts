import type { AnswerUsage } from "./types.ts";

/**
 * What one engine's answers cost, in USD (ADR 0029): the list prices of its default model and of
 * the search it runs, as published by the vendor when this was written (docs/costs.md). The
 * operator's own prices (`SIGHTLINE_ENGINE_PRICES`) replace them field by field.
 */
export interface EnginePrice {
  /** Per million input tokens. */
  inputPerMillion: number;
  /** Per million output tokens (reasoning tokens included). */
  outputPerMillion: number;
  /** Per billable search: a web-search tool call, a grounded query, a SERP search or scraping task. */
  perSearch: number;
  /** Per answered request (Perplexity's request fee). */
  perRequest: number;
}

/** Engines that cost nothing to ask (the sandbox, and local models unless the operator prices them). */
export const FREE: EnginePrice = { inputPerMillion: 0, outputPerMillion: 0, perSearch: 0, perRequest: 0 };

/** Costs are kept in millionths of a US dollar: integers, so that sums over millions of answers are exact. */
const MICROS_PER_USD = 1_000_000;

/**
 * One answer's cost in micro-USD: the vendor's own figure when it gives one (Perplexity's
 * `usage.cost`, DataForSEO's `cost`), otherwise its usage priced from the table.
 */
export function answerCostMicros(price: EnginePrice, usage: AnswerUsage): number {
  const usd =
    usage.costUsd ??
    ((usage.inputTokens ?? 0) * price.inputPerMillion) / 1_000_000 +
      ((usage.outputTokens ?? 0) * price.outputPerMillion) / 1_000_000 +
      usage.searchCalls * price.perSearch +
      price.perRequest;
  return Math.round(usd * MICROS_PER_USD);
}

/**
 * What the vendors' batch APIs charge (OpenAI Batch, Anthropic Message Batches, Gemini batch mode):
 * half the price of tokens; searches and request fees as listed.
 */
export function batchPrice(price: EnginePrice): EnginePrice {
  return { ...price, inputPerMillion: price.inputPerMillion / 2, outputPerMillion: price.outputPerMillion / 2 };
}

/** Micro-USD as USD, for the API (six decimals at most). */
export function microsToUsd(micros: number): number {
  return Math.round(micros) / MICROS_PER_USD;
}
