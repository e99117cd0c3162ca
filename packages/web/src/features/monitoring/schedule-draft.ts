import type {
  AlertRule,
  AlertRuleInput,
  EngineName,
  MonitoringSchedule,
  MonitoringScheduleCreate,
  ScheduleSpec,
} from "@sightline/sdk";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { isEmailAddress } from "../../lib/email.ts";
import { engineName } from "../../lib/format.ts";
import { parsePath, splitPrompts } from "../brands/brand-draft.ts";

/** The schedule form's state, and its translation to and from the API's monitoring schedule. */

export type Frequency = "hour" | "day" | "week" | "cron";
export type Weekday = NonNullable<ScheduleSpec["weekday"]>;
export type RuleType = AlertRule["type"];

export const WEEKDAYS: Weekday[] = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

export const RULE_TYPES: { type: RuleType; label: string; description: string }[] = [
  {
    type: "visibility_below",
    label: "Visibility falls below",
    description: "Visibility is under a threshold you set.",
  },
  {
    type: "visibility_drop",
    label: "Visibility drops",
    description: "Visibility falls by a number of points since the previous run.",
  },
  {
    type: "competitor_overtakes",
    label: "A competitor overtakes the brand",
    description: "A competitor's share of voice becomes larger than the brand's.",
  },
  {
    type: "brand_disappeared",
    label: "The brand disappears from the answers",
    description: "No answer names the brand any more.",
  },
  {
    type: "sentiment_below",
    label: "Sentiment falls below",
    description: "Sentiment (0 to 100, 50 neutral) is under a threshold you set.",
  },
  {
    type: "domain_not_cited",
    label: "The brand's sites are not cited",
    description: "No answer cites one of the brand's domains.",
  },
  {
    type: "crawls_drop",
    label: "AI crawls fall",
    description:
      "AI crawlers (GPTBot, ClaudeBot, PerplexityBot…) visited the brand's pages this much less in the last 7 days than in the 7 before, from the access logs on the Traffic page.",
  },
  {
    type: "referrals_drop",
    label: "Visits from AI answers fall",
    description:
      "Fewer people came to the brand's site from AI answers (ChatGPT, Perplexity…) in the last 7 days than in the 7 before, by this much.",
  },
  {
    type: "crawler_blocked",
    label: "robots.txt blocks an AI crawler",
    description:
      "The brand's robots.txt blocks a crawler that feeds one of the engines this schedule asks, so that engine cannot read or cite its pages.",
  },
  {
    type: "experiment_result",
    label: "An experiment's result is ready",
    description:
      "One of the brand's experiments (a change recorded on the Experiments page) has its answers in and its result ready to read.",
  },
];

/**
 * Rules judged for the brand as a whole, never per engine: those read from its traffic, and an
 * experiment's result (which has its own engines). They take no engines.
 */
export const BRAND_RULE_TYPES: readonly RuleType[] = [
  "crawls_drop",
  "referrals_drop",
  "crawler_blocked",
  "experiment_result",
];

export interface RuleDraft {
  key: string;
  type: RuleType;
  /** visibility_below: percent (0–100); sentiment_below: sentiment (0–100). */
  threshold: string;
  points: string;
  requireSignificance: boolean;
  competitor: string;
  /** Empty: all engines together. */
  engines: string[];
  /** E-mail addresses, separated by commas, spaces or lines. */
  emails: string;
  /** A Slack incoming-webhook URL, or the masked form the server shows for the one it holds. */
  slack: string;
}

export interface ScheduleDraft {
  frequency: Frequency;
  at: string;
  weekday: Weekday;
  cron: string;
  timezone: string;
  brandEngines: boolean;
  engines: string[];
  brandPrompts: boolean;
  prompts: string;
  samples: string;
  active: boolean;
  /** Answers through the vendors' batch APIs where an engine has one (half price, within 24 hours). */
  batch: boolean;
  rules: RuleDraft[];
}

let nextKey = 0;
export function newRule(type: RuleType = "visibility_drop", competitor = ""): RuleDraft {
  nextKey += 1;
  return {
    key: `rule-${nextKey}`,
    type,
    threshold: type === "sentiment_below" ? "40" : type === "crawls_drop" || type === "referrals_drop" ? "50" : "30",
    points: "10",
    requireSignificance: true,
    competitor,
    engines: [],
    emails: "",
    slack: "",
  };
}

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

export function emptySchedule(): ScheduleDraft {
  return {
    frequency: "day",
    at: "09:00",
    weekday: "monday",
    cron: "",
    timezone: browserTimeZone(),
    brandEngines: true,
    engines: [],
    brandPrompts: true,
    prompts: "",
    samples: "3",
    active: true,
    batch: false,
    rules: [newRule("visibility_drop")],
  };
}

function ruleDraftOf(rule: AlertRule): RuleDraft {
  return {
    ...newRule(rule.type, rule.competitor ?? ""),
    threshold:
      rule.threshold === undefined
        ? ""
        : String(rule.type === "visibility_below" ? Math.round(rule.threshold * 1000) / 10 : rule.threshold),
    points: rule.points === undefined ? "10" : String(rule.points),
    requireSignificance: rule.require_significance !== false,
    engines: rule.engines ?? [],
    emails: (rule.channels?.email ?? []).join(", "),
    slack: rule.channels?.slack ?? "",
  };
}

/** The addresses typed in a rule's e-mail field. */
function splitEmails(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((address) => address.trim())
    .filter((address) => address !== "");
}

/** The most addresses one rule e-mails (the server's limit). */
export const MAX_RULE_EMAILS = 20;

export function scheduleDraftOf(schedule: MonitoringSchedule): ScheduleDraft {
  const spec = schedule.schedule;
  return {
    frequency: spec.cron !== undefined ? "cron" : (spec.every ?? "day"),
    at: spec.at ?? "00:00",
    weekday: spec.weekday ?? "monday",
    cron: spec.cron ?? "",
    timezone: schedule.timezone,
    brandEngines: schedule.engines === null,
    engines: schedule.engines ?? [],
    brandPrompts: schedule.prompts === null,
    prompts: (schedule.prompts ?? []).join("\n"),
    samples: String(schedule.samples),
    active: schedule.active,
    batch: schedule.batch ?? false,
    rules: schedule.alert_rules.map(ruleDraftOf),
  };
}

function specOf(draft: ScheduleDraft): ScheduleSpec {
  if (draft.frequency === "cron") return { cron: draft.cron.trim() };
  if (draft.frequency === "hour") return { every: "hour" };
  if (draft.frequency === "day") return { every: "day", at: draft.at };
  return { every: "week", at: draft.at, weekday: draft.weekday };
}

function ruleOf(rule: RuleDraft): AlertRuleInput {
  const base: AlertRuleInput = { type: rule.type };
  if (rule.engines.length > 0) base.engines = rule.engines as EngineName[];
  const email = splitEmails(rule.emails);
  const slack = rule.slack.trim();
  if (email.length > 0 || slack !== "") {
    // Absent channels: webhooks only. A masked Slack URL sent back keeps the one the server holds.
    base.channels = { ...(email.length > 0 ? { email } : {}), ...(slack !== "" ? { slack } : {}) };
  }
  if (rule.type === "visibility_below") return { ...base, threshold: Number(rule.threshold) / 100 };
  if (rule.type === "sentiment_below") return { ...base, threshold: Number(rule.threshold) };
  if (rule.type === "crawls_drop" || rule.type === "referrals_drop") {
    const { engines: _engines, ...whole } = base;
    return { ...whole, threshold: Number(rule.threshold) };
  }
  if (rule.type === "crawler_blocked" || rule.type === "experiment_result") {
    const { engines: _engines, ...whole } = base;
    return whole;
  }
  if (rule.type === "visibility_drop") {
    return { ...base, points: Number(rule.points), require_significance: rule.requireSignificance };
  }
  if (rule.type === "competitor_overtakes") return { ...base, competitor: rule.competitor };
  return base;
}

export function scheduleBodyOf(draft: ScheduleDraft): Omit<MonitoringScheduleCreate, "project_id"> {
  return {
    schedule: specOf(draft),
    timezone: draft.timezone.trim() || "UTC",
    engines: draft.brandEngines ? null : (draft.engines as EngineName[]),
    prompts: draft.brandPrompts ? null : splitPrompts(draft.prompts),
    samples: Number(draft.samples),
    active: draft.active,
    batch: draft.batch,
    alert_rules: draft.rules.map(ruleOf),
  };
}

function isNumberIn(text: string, low: number, high: number, lowExclusive = false): boolean {
  if (text.trim() === "") return false;
  const value = Number(text);
  return Number.isFinite(value) && (lowExclusive ? value > low : value >= low) && value <= high;
}

export function checkSchedule(draft: ScheduleDraft): Record<string, string> {
  const errors: Record<string, string> = {};
  if (draft.frequency === "cron" && draft.cron.trim() === "")
    errors.cron = "Enter a cron expression, e.g. 0 9 * * 1-5.";
  if ((draft.frequency === "day" || draft.frequency === "week") && !/^([01]\d|2[0-3]):[0-5]\d$/.test(draft.at)) {
    errors.at = "Choose a time of day.";
  }
  if (!draft.brandEngines && draft.engines.length === 0) errors.engines = "Choose at least one engine.";
  if (!draft.brandPrompts && splitPrompts(draft.prompts).length === 0) errors.prompts = "Enter at least one prompt.";
  const samples = Number(draft.samples);
  if (!Number.isInteger(samples) || samples < 1 || samples > 10) errors.samples = "A whole number from 1 to 10.";
  draft.rules.forEach((rule, i) => {
    if ((rule.type === "visibility_below" || rule.type === "sentiment_below") && !isNumberIn(rule.threshold, 0, 100)) {
      errors[`rules.${i}.threshold`] =
        rule.type === "visibility_below" ? "A percentage from 0 to 100." : "A score from 0 to 100.";
    }
    if ((rule.type === "crawls_drop" || rule.type === "referrals_drop") && !isNumberIn(rule.threshold, 0, 100, true))
      errors[`rules.${i}.threshold`] = "A percentage, more than 0 and at most 100.";
    if (rule.type === "visibility_drop" && !isNumberIn(rule.points, 0, 100, true)) {
      errors[`rules.${i}.points`] = "Points of visibility, more than 0 and at most 100.";
    }
    if (rule.type === "competitor_overtakes" && rule.competitor === "")
      errors[`rules.${i}.competitor`] = "Choose a competitor.";
    const emails = splitEmails(rule.emails);
    const bad = emails.find((address) => !isEmailAddress(address));
    if (bad !== undefined) errors[`rules.${i}.emails`] = `“${bad}” is not an e-mail address.`;
    else if (emails.length > MAX_RULE_EMAILS) errors[`rules.${i}.emails`] = `At most ${MAX_RULE_EMAILS} addresses.`;
    const slack = rule.slack.trim();
    if (slack !== "" && !/^https?:\/\//.test(slack)) errors[`rules.${i}.slack`] = "A URL starting with https://.";
  });
  return errors;
}

/** The server's issues on the form's fields: `schedule.cron` → cron, `alert_rules[1].points` → that rule's points. */
export function scheduleServerErrors(error: unknown): { fields: Record<string, string>; message?: string } {
  if (!(error instanceof ApiError) || error.details.length === 0) return { fields: {}, message: errorMessage(error) };
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const { field, issue } of error.details) {
    const [top, a, b, c] = field ? parsePath(field) : [];
    let name: string | undefined;
    if (top === "schedule") name = a === "cron" || a === "at" ? String(a) : a === "weekday" ? "weekday" : "frequency";
    else if (top === "timezone" || top === "engines" || top === "samples") name = top;
    else if (top === "prompts") name = "prompts";
    else if (top === "alert_rules" && typeof a === "number" && b === "channels")
      name = `rules.${a}.${c === "slack" ? "slack" : "emails"}`;
    else if (top === "alert_rules" && typeof a === "number") name = `rules.${a}.${typeof b === "string" ? b : "type"}`;
    else if (top === "alert_rules") name = "rules";
    if (name) {
      const prefix = top === "prompts" && typeof a === "number" ? `Prompt ${a + 1}: ` : "";
      fields[name] = fields[name] ? `${fields[name]} ${prefix}${issue}` : `${prefix}${issue}`;
    } else rest.push(field ? `${field}: ${issue}` : issue);
  }
  if (Object.keys(fields).length === 0) return { fields, message: errorMessage(error) };
  return rest.length > 0 ? { fields, message: rest.join(" ") } : { fields };
}

const WEEKDAY_NAMES: Record<Weekday, string> = {
  monday: "Monday",
  tuesday: "Tuesday",
  wednesday: "Wednesday",
  thursday: "Thursday",
  friday: "Friday",
  saturday: "Saturday",
  sunday: "Sunday",
};

export function weekdayName(day: Weekday): string {
  return WEEKDAY_NAMES[day];
}

/** "Every Monday at 09:00 (Europe/Paris)". */
export function describeSchedule(schedule: Pick<MonitoringSchedule, "schedule" | "timezone">): string {
  const spec = schedule.schedule;
  const when =
    spec.cron !== undefined
      ? `On the cron schedule “${spec.cron}”`
      : spec.every === "hour"
        ? "Every hour"
        : spec.every === "week"
          ? `Every ${weekdayName(spec.weekday ?? "monday")} at ${spec.at ?? "00:00"}`
          : `Every day at ${spec.at ?? "00:00"}`;
  return `${when} (${schedule.timezone})`;
}

/** "Visibility drops by 10 points or more, when statistically real · ChatGPT". */
export function describeRule(rule: AlertRule | AlertRuleInput): string {
  let text: string;
  switch (rule.type) {
    case "visibility_below":
      text = `Visibility falls below ${Math.round((rule.threshold ?? 0) * 1000) / 10}%`;
      break;
    case "visibility_drop":
      text = `Visibility drops by ${rule.points ?? "?"} points or more${rule.require_significance === false ? "" : ", when statistically real"}`;
      break;
    case "competitor_overtakes":
      text = `${rule.competitor ?? "A competitor"} overtakes the brand`;
      break;
    case "brand_disappeared":
      text = "The brand disappears from the answers";
      break;
    case "sentiment_below":
      text = `Sentiment falls below ${rule.threshold ?? "?"} / 100`;
      break;
    case "domain_not_cited":
      text = "The brand's sites are not cited";
      break;
    case "crawls_drop":
      text = `AI crawls fall by ${rule.threshold ?? "?"}% or more`;
      break;
    case "referrals_drop":
      text = `Visits from AI answers fall by ${rule.threshold ?? "?"}% or more`;
      break;
    case "crawler_blocked":
      text = "robots.txt blocks an AI crawler";
      break;
    case "experiment_result":
      text = "An experiment's result is ready";
      break;
  }
  const engines = rule.engines?.length ? ` · ${rule.engines.map(engineName).join(", ")}, each on its own` : "";
  return `${text}${engines}${describeChannels(rule.channels)}`;
}

/** " · e-mail to 2 addresses · Slack": where a rule's alerts go besides webhooks. */
function describeChannels(channels: AlertRule["channels"]): string {
  const count = channels?.email?.length ?? 0;
  const email = count === 0 ? "" : ` · e-mail to ${count === 1 ? channels?.email?.[0] : `${count} addresses`}`;
  return `${email}${channels?.slack ? " · Slack" : ""}`;
}
