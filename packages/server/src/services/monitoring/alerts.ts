import type { ErrorDetail } from "../../errors/api-error.ts";
import { ownValue } from "../../lib/own-keys.ts";
import { count } from "../../lib/plural.ts";
import type { AnalysisSummary } from "../analyses/types.ts";
import { percent, points, sentiment } from "../glossary/format.ts";
import { engineTitle } from "../labels.ts";
import { MAX_ALERT_RULES } from "../limits.ts";
import { compareIntervals, type Summary } from "../measurement/aggregate.ts";
import { SIGNAL_DAYS, type TrafficSignals } from "../traffic/signals.ts";
import { ruleCondition } from "./rule-words.ts";
import type { AlertRule, AlertRuleInput } from "./types.ts";

/** Checks rules against the project and the engines the server knows; gives them stable ids. */
export function checkRules(
  inputs: AlertRuleInput[],
  competitors: string[],
  knownEngines: string[],
  details: ErrorDetail[],
): AlertRule[] {
  if (inputs.length > MAX_ALERT_RULES) {
    details.push({ field: "alert_rules", issue: `at most ${MAX_ALERT_RULES} rules` });
  }
  return inputs.map((given, index) => {
    // Channels are checked apart (deps.alertChannels: DNS, encryption) and added by the caller.
    const { channels: _channels, ...input } = given;
    const field = `alert_rules[${index}]`;
    for (const [i, engine] of (input.engines ?? []).entries()) {
      if (!knownEngines.includes(engine))
        details.push({ field: `${field}.engines[${i}]`, issue: `unknown engine '${engine}'` });
    }
    const need = (name: string, ok: boolean, issue: string) => {
      if (!ok) details.push({ field: `${field}.${name}`, issue });
    };
    const value = input as unknown as Record<string, unknown>;
    /** A number the rule needs, within its range: "is required" only when it is missing. */
    const inRange = (name: string, what: string, low: number, high: number, lowExclusive = false) => {
      const given = value[name];
      if (typeof given !== "number") return need(name, false, `is required: ${what} between ${low} and ${high}`);
      const ok = (lowExclusive ? given > low : given >= low) && given <= high;
      need(name, ok, `must be between ${low} and ${high}${lowExclusive ? ` (more than ${low})` : ""}`);
    };
    if (input.type === "visibility_below") inRange("threshold", "a visibility", 0, 1);
    if (input.type === "visibility_drop") inRange("points", "percentage points", 0, 100, true);
    if (input.type === "sentiment_below") inRange("threshold", "a sentiment (0 to 100)", 0, 100);
    if (input.type === "crawls_drop" || input.type === "referrals_drop")
      inRange("threshold", "a percent fall", 0, 100, true);
    const allowed: Record<string, string[]> = {
      visibility_below: ["threshold"],
      visibility_drop: ["points", "require_significance"],
      competitor_overtakes: ["competitor"],
      brand_disappeared: [],
      sentiment_below: ["threshold"],
      domain_not_cited: [],
      crawls_drop: ["threshold"],
      referrals_drop: ["threshold"],
      crawler_blocked: [],
      experiment_result: [],
    };
    // Traffic is the brand's, not an engine's: its rules judge it whole.
    if (BRAND_RULES.has(input.type) && input.engines !== undefined)
      details.push({ field: `${field}.engines`, issue: `does not apply to ${input.type} rules` });
    for (const key of Object.keys(value)) {
      if (key !== "type" && key !== "engines" && !(allowed[input.type] ?? []).includes(key)) {
        details.push({ field: `${field}.${key}`, issue: `does not apply to ${input.type} rules` });
      }
    }
    if (input.type === "competitor_overtakes") {
      need("competitor", typeof value.competitor === "string", "is required: one of the project's competitors");
      const wanted = typeof value.competitor === "string" ? value.competitor.trim().toLowerCase() : "";
      const match = competitors.find((name) => name.toLowerCase() === wanted);
      if (match === undefined && typeof value.competitor === "string") {
        details.push({
          field: `${field}.competitor`,
          issue: `is not one of the project's competitors (${competitors.join(", ") || "none"})`,
        });
      }
      return {
        ...input,
        type: "competitor_overtakes",
        competitor: match ?? String(value.competitor ?? ""),
        id: `rule_${index + 1}`,
      };
    }
    if (input.type === "visibility_drop") {
      // Stored explicitly, so that reading the rule shows how it behaves.
      return {
        ...input,
        require_significance: value.require_significance !== false,
        id: `rule_${index + 1}`,
      } as AlertRule;
    }
    return { ...input, id: `rule_${index + 1}` } as AlertRule;
  });
}

/** Rules read from the brand's traffic (issue 26) rather than from the run's answers. */
export const TRAFFIC_RULES: ReadonlySet<string> = new Set(["crawls_drop", "referrals_drop", "crawler_blocked"]);

/** Rules that judge the brand whole, never an engine on its own. */
const BRAND_RULES: ReadonlySet<string> = new Set([...TRAFFIC_RULES, "experiment_result"]);

/** A fall is judged from this many crawls or visits in the week before: fewer say nothing. */
const MIN_TRAFFIC = 20;

export interface Evaluation {
  rule: AlertRule;
  /** "all" or an engine. */
  scope: string;
  holds: boolean;
  observed: number | null;
  previous: number | null;
  message: string;
}

/** A share in the glossary's format ("73%", "4.5%"), as every screen prints it. */
const pct = (value: number | null) => (value === null ? "n/a" : percent(value));

function scopes(rule: AlertRule, current: AnalysisSummary): string[] {
  if (rule.engines !== undefined && rule.engines.length > 0)
    return rule.engines.filter((e) => ownValue(current.by_engine, e) !== undefined);
  if (rule.type === "brand_disappeared") return Object.keys(current.by_engine);
  return ["all"];
}

/** A week's fall against the week before, in percent; null below MIN_TRAFFIC before. */
function fall(counts: { current: number; previous: number }): number | null {
  if (counts.previous < MIN_TRAFFIC) return null;
  return Math.round(((counts.previous - counts.current) / counts.previous) * 1000) / 10;
}

function evaluateTraffic(rule: AlertRule, traffic: TrafficSignals): Evaluation | null {
  switch (rule.type) {
    case "crawls_drop":
    case "referrals_drop": {
      const counts = rule.type === "crawls_drop" ? traffic.crawls : traffic.referrals;
      const fell = fall(counts);
      const what = rule.type === "crawls_drop" ? "crawl" : "visit";
      return {
        rule,
        scope: "all",
        holds: fell !== null && fell >= rule.threshold,
        observed: counts.current,
        previous: counts.previous,
        message: `${ruleCondition(rule)}: ${count(counts.current, what)} in the last ${SIGNAL_DAYS} days against ${count(counts.previous, what)} the ${SIGNAL_DAYS} before${fell === null ? "" : ` (${fell > 0 ? "−" : "+"}${Math.abs(fell)}%)`}.`,
      };
    }
    case "crawler_blocked":
      return {
        rule,
        scope: "all",
        holds: traffic.blocked.length > 0,
        observed: traffic.blocked.length,
        previous: null,
        message: `${ruleCondition(rule)}: ${traffic.blocked.join("; ") || "none blocked"}.`,
      };
    default:
      return null;
  }
}

function pick(summary: AnalysisSummary | null, scope: string): Summary | null {
  if (summary === null) return null;
  return scope === "all" ? summary.overall : (ownValue(summary.by_engine, scope) ?? null);
}

/**
 * Whether each rule's condition holds after a run, per scope. `wasActive` says whether it held
 * after the previous run: an alert fires only when a condition starts to hold.
 */
export function evaluateRules(
  rules: AlertRule[],
  current: AnalysisSummary,
  previous: AnalysisSummary | null,
  wasActive: (ruleId: string, scope: string) => boolean,
  traffic: TrafficSignals | null = null,
): Evaluation[] {
  const out: Evaluation[] = [];
  for (const rule of rules) {
    // Fired by experiments when a change's result is ready (brand-alerts.ts), not by a run's figures.
    if (rule.type === "experiment_result") continue;
    if (TRAFFIC_RULES.has(rule.type)) {
      const evaluation = traffic === null ? null : evaluateTraffic(rule, traffic);
      if (evaluation !== null) out.push(evaluation);
      continue;
    }
    for (const scope of scopes(rule, current)) {
      const now = pick(current, scope);
      const before = pick(previous, scope);
      if (now === null || now.answers === 0) continue;
      const where = scope === "all" ? "across engines" : `on ${engineTitle(scope)}`;
      switch (rule.type) {
        case "visibility_below": {
          const value = now.visibility.value;
          out.push({
            rule,
            scope,
            holds: value !== null && value < rule.threshold,
            observed: value,
            previous: before?.visibility.value ?? null,
            message: `${ruleCondition(rule)}: ${pct(value)} ${where}.`,
          });
          break;
        }
        case "visibility_drop": {
          const value = now.visibility.value;
          const prior = before?.visibility.value ?? null;
          const drop = value !== null && prior !== null ? (prior - value) * 100 : null;
          const significant =
            rule.require_significance === false ||
            (before !== null && compareIntervals(now.visibility, before.visibility) === "below");
          out.push({
            rule,
            scope,
            holds: drop !== null && drop >= rule.points && significant,
            observed: value,
            previous: prior,
            message: `${ruleCondition(rule)}: from ${pct(prior)} to ${pct(value)} ${where} (${value === null || prior === null ? "?" : points(value - prior)}).`,
          });
          break;
        }
        case "competitor_overtakes": {
          const theirs = now.competitors.find((c) => c.name === rule.competitor)?.share_of_voice ?? null;
          const ours = now.share_of_voice;
          out.push({
            rule,
            scope,
            holds: theirs !== null && ours !== null && theirs > ours,
            observed: theirs,
            previous: ours,
            message: `${ruleCondition(rule)}: share of voice ${pct(theirs)} against the brand's ${pct(ours)} ${where}.`,
          });
          break;
        }
        case "brand_disappeared": {
          const gone = now.visibility.count === 0;
          const wasThere = (before?.visibility.count ?? 0) > 0;
          out.push({
            rule,
            scope,
            holds: gone && (wasThere || wasActive(rule.id, scope)),
            observed: now.visibility.value,
            previous: before?.visibility.value ?? null,
            message: `${ruleCondition(rule)} ${where}: named in no answer (in ${count(before?.visibility.count ?? 0, "answer")} last run).`,
          });
          break;
        }
        case "sentiment_below": {
          const value = now.sentiment_score;
          out.push({
            rule,
            scope,
            holds: value !== null && value < rule.threshold,
            observed: value,
            previous: before?.sentiment_score ?? null,
            message: `${ruleCondition(rule)}: ${value === null ? "n/a" : sentiment(value)} ${where}.`,
          });
          break;
        }
        case "domain_not_cited": {
          const uncited = now.brand_citations === 0;
          const wasCited = (before?.brand_citations ?? 0) > 0;
          out.push({
            rule,
            scope,
            holds: uncited && (wasCited || wasActive(rule.id, scope)),
            observed: now.brand_citations,
            previous: before?.brand_citations ?? null,
            message: `${ruleCondition(rule)} ${where}: no citation (${count(before?.brand_citations ?? 0, "citation")} last run).`,
          });
          break;
        }
      }
    }
  }
  return out;
}
