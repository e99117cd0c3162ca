import type { AlertRule } from "./types.ts";

/** A threshold as a rule is written: 0.3 → "30%", 0.125 → "12.5%". */
function thresholdPercent(value: number): string {
  return `${Math.round(value * 1000) / 10}%`;
}

/**
 * The rule's condition in the words the dashboard's alert rules form uses (its labels and
 * `describeRule`), e.g. "Visibility falls below 30%": an alert's message starts with them, so that
 * an alert reads as the rule that fired it.
 */
export function ruleCondition(rule: AlertRule): string {
  switch (rule.type) {
    case "visibility_below":
      return `Visibility falls below ${thresholdPercent(rule.threshold)}`;
    case "visibility_drop":
      return `Visibility drops by ${rule.points} points or more${rule.require_significance === false ? "" : ", when statistically real"}`;
    case "competitor_overtakes":
      return `${rule.competitor} overtakes the brand`;
    case "brand_disappeared":
      return "The brand disappears from the answers";
    case "sentiment_below":
      return `Sentiment score falls below ${rule.threshold} / 100`;
    case "domain_not_cited":
      return "The brand's sites are not cited";
  }
}

/** The rule in words, e.g. "Visibility drops by 10 points or more, when statistically real · chatgpt, each on its own". */
export function ruleInWords(rule: AlertRule): string {
  const engines = rule.engines?.length ? ` · ${rule.engines.join(", ")}, each on its own` : "";
  return `${ruleCondition(rule)}${engines}`;
}
