import type { AlertChannels, AlertRule, ScheduleView, StoredAlertChannels } from "./types.ts";

/** An alert rule as the API shows it: its channels with the Slack URL masked, never decrypted. */
export type AlertRuleView = ScheduleView["alert_rules"][number];

function channelsView(stored: StoredAlertChannels): AlertChannels {
  return {
    ...(stored.email === undefined ? {} : { email: stored.email }),
    ...(stored.slack === undefined ? {} : { slack: stored.slack.hint }),
  };
}

/** A stored rule as the API shows it (schedules, alerts, events, reports). */
export function ruleView(rule: AlertRule): AlertRuleView {
  const { channels, ...rest } = rule;
  return channels === undefined ? rest : { ...rest, channels: channelsView(channels) };
}

/** Every channel the schedule's rules hold, as stored: what a masked Slack URL sent back may keep. */
export function storedChannels(rules: readonly AlertRule[]): StoredAlertChannels[] {
  return rules.flatMap((rule) => (rule.channels === undefined ? [] : [rule.channels]));
}
