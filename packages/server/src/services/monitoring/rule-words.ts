import { engineTitle } from "../labels.ts";
import type { AlertRule } from "./types.ts";

/** What a rule's words are made of: a stored rule, or a fired alert's copy of it. */
type RuleTerms = Pick<AlertRule, "type"> & {
  threshold?: number;
  points?: number;
  competitor?: string;
  require_significance?: boolean;
};

/** A threshold as a rule is written: 0.3 → "30%", 0.125 → "12.5%". */
function thresholdPercent(value: number): string {
  return `${Math.round(value * 1000) / 10}%`;
}

/**
 * The rule's condition in the words the dashboard's alert rules form uses (its labels and
 * `describeRule`), e.g. "Visibility falls below 30%": an alert's message starts with them, so that
 * an alert reads as the rule that fired it.
 */
export function ruleCondition(rule: RuleTerms): string {
  switch (rule.type) {
    case "visibility_below":
      return `Visibility falls below ${thresholdPercent(rule.threshold ?? 0)}`;
    case "visibility_drop":
      return `Visibility drops by ${rule.points ?? 0} points or more${rule.require_significance === false ? "" : ", when statistically real"}`;
    case "competitor_overtakes":
      return `${rule.competitor ?? "A competitor"} overtakes the brand`;
    case "brand_disappeared":
      return "The brand disappears from the answers";
    case "sentiment_below":
      return `Sentiment falls below ${rule.threshold ?? 0} / 100`;
    case "domain_not_cited":
      return "The brand's sites are not cited";
    case "crawls_drop":
      return `AI crawls fall by ${rule.threshold ?? 0}% or more`;
    case "referrals_drop":
      return `Visits from AI answers fall by ${rule.threshold ?? 0}% or more`;
    case "crawler_blocked":
      return "robots.txt blocks an AI crawler";
    case "experiment_result":
      return "An experiment's result is ready";
  }
}

/** The rule in words, e.g. "Visibility drops by 10 points or more, when statistically real · chatgpt, each on its own". */
export function ruleInWords(rule: AlertRule): string {
  const engines = rule.engines?.length ? ` · ${rule.engines.map(engineTitle).join(", ")}, each on its own` : "";
  return `${ruleCondition(rule)}${engines}`;
}
