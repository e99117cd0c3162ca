import type { MonitoringSchedule } from "@sightline/sdk";
import { describe, expect, it } from "vitest";
import {
  BRAND_RULE_TYPES,
  checkSchedule,
  describeRule,
  describeSchedule,
  emptySchedule,
  newRule,
  RULE_TYPES,
  scheduleBodyOf,
  scheduleDraftOf,
  scheduleServerErrors,
} from "../src/features/monitoring/schedule-draft.ts";
import { ApiError } from "../src/lib/api.ts";

describe("schedule form", () => {
  it("sends each frequency as the API expects, thresholds in its units", () => {
    const draft = {
      ...emptySchedule(),
      frequency: "week" as const,
      weekday: "tuesday" as const,
      at: "08:30",
      timezone: "Europe/Paris",
      rules: [
        { ...newRule("visibility_below"), threshold: "25", engines: ["chatgpt"] },
        { ...newRule("visibility_drop"), points: "5", requireSignificance: false },
        { ...newRule("competitor_overtakes"), competitor: "HubSpot" },
        newRule("brand_disappeared"),
      ],
    };
    expect(scheduleBodyOf(draft)).toEqual({
      schedule: { every: "week", at: "08:30", weekday: "tuesday" },
      timezone: "Europe/Paris",
      engines: null,
      prompts: null,
      samples: 3,
      active: true,
      batch: false,
      alert_rules: [
        { type: "visibility_below", threshold: 0.25, engines: ["chatgpt"] },
        { type: "visibility_drop", points: 5, require_significance: false },
        { type: "competitor_overtakes", competitor: "HubSpot" },
        { type: "brand_disappeared" },
      ],
    });
    expect(scheduleBodyOf({ ...draft, frequency: "hour" }).schedule).toEqual({ every: "hour" });
    // The batch choice goes out as set, and comes back from the schedule as it was saved.
    expect(scheduleBodyOf({ ...draft, batch: true }).batch).toBe(true);
    expect(
      scheduleDraftOf({
        ...scheduleBodyOf({ ...draft, batch: true }),
        alert_rules: [],
      } as unknown as MonitoringSchedule).batch,
    ).toBe(true);
    expect(scheduleBodyOf({ ...draft, frequency: "cron", cron: " 0 9 * * 1-5 " }).schedule).toEqual({
      cron: "0 9 * * 1-5",
    });
  });

  it("reads a schedule back into the form", () => {
    const schedule = {
      schedule: { every: "day", at: "07:00" },
      timezone: "UTC",
      engines: ["sandbox"],
      prompts: null,
      samples: 2,
      active: false,
      alert_rules: [{ id: "rule_1", type: "visibility_below", threshold: 0.3 }],
    } as unknown as MonitoringSchedule;
    const draft = scheduleDraftOf(schedule);
    expect(draft).toMatchObject({
      frequency: "day",
      at: "07:00",
      brandEngines: false,
      engines: ["sandbox"],
      brandPrompts: true,
    });
    expect(draft.rules[0]?.threshold).toBe("30");
    expect(describeSchedule(schedule)).toBe("Every day at 07:00 (UTC)");
    expect(describeRule({ type: "visibility_below", threshold: 0.3 })).toBe("Visibility falls below 30%");
  });

  it("offers an experiment's result as a brand-level rule, sent without threshold or engines", () => {
    const offered = RULE_TYPES.find((t) => t.type === "experiment_result");
    expect(offered?.label).toBe("An experiment's result is ready");
    expect(BRAND_RULE_TYPES).toContain("experiment_result");
    const draft = { ...emptySchedule(), rules: [{ ...newRule("experiment_result"), engines: ["sandbox"] }] };
    expect(checkSchedule(draft)).toEqual({});
    expect(scheduleBodyOf(draft).alert_rules).toEqual([{ type: "experiment_result" }]);
    const schedule = {
      schedule: { every: "day", at: "09:00" },
      timezone: "UTC",
      engines: null,
      prompts: null,
      samples: 2,
      active: true,
      alert_rules: [{ type: "experiment_result" }],
    } as unknown as MonitoringSchedule;
    expect(scheduleDraftOf(schedule).rules[0]?.type).toBe("experiment_result");
    expect(describeRule({ type: "experiment_result" })).toBe("An experiment's result is ready");
  });

  it("checks the form and places the server's issues", () => {
    const errors = checkSchedule({
      ...emptySchedule(),
      frequency: "cron",
      samples: "11",
      rules: [{ ...newRule("visibility_drop"), points: "0" }],
    });
    expect(Object.keys(errors).sort()).toEqual(["cron", "rules.0.points", "samples"]);
    const error = new ApiError(400, "VALIDATION_ERROR", "bad", [
      { field: "schedule.cron", issue: "runs more often than once an hour" },
      { field: "alert_rules[0].competitor", issue: "is not one of the project's competitors" },
    ]);
    expect(scheduleServerErrors(error).fields).toEqual({
      cron: "runs more often than once an hour",
      "rules.0.competitor": "is not one of the project's competitors",
    });
  });

  it("sends a rule's e-mail and Slack channels, reads the masked Slack URL back and sends it unchanged", () => {
    const masked = "https://hooks.slack.com/services/T…/…abcd";
    const draft = {
      ...emptySchedule(),
      rules: [
        { ...newRule("brand_disappeared"), emails: " ops@example.com,cmo@example.com\nceo@example.com ", slack: "" },
        { ...newRule("domain_not_cited"), slack: ` ${masked} ` },
        newRule("brand_disappeared"),
      ],
    };
    expect(scheduleBodyOf(draft).alert_rules).toEqual([
      {
        type: "brand_disappeared",
        channels: { email: ["ops@example.com", "cmo@example.com", "ceo@example.com"] },
      },
      { type: "domain_not_cited", channels: { slack: masked } },
      { type: "brand_disappeared" },
    ]);
    const read = scheduleDraftOf({
      schedule: { every: "day" },
      timezone: "UTC",
      engines: null,
      prompts: null,
      samples: 1,
      active: true,
      alert_rules: [
        { id: "rule_1", type: "brand_disappeared", channels: { email: ["ops@example.com"], slack: masked } },
      ],
    } as unknown as MonitoringSchedule);
    expect(read.rules[0]).toMatchObject({ emails: "ops@example.com", slack: masked });
    expect(scheduleBodyOf(read).alert_rules?.[0]?.channels).toEqual({ email: ["ops@example.com"], slack: masked });
    expect(
      describeRule({
        type: "brand_disappeared",
        channels: { email: ["a@example.com", "b@example.com"], slack: masked },
      }),
    ).toBe("The brand disappears from the answers · e-mail to 2 addresses · Slack");

    const errors = checkSchedule({
      ...emptySchedule(),
      rules: [{ ...newRule("brand_disappeared"), emails: "ops@example.com nope", slack: "hooks.slack.com/x" }],
    });
    expect(errors).toMatchObject({
      "rules.0.emails": "“nope” is not an e-mail address.",
      "rules.0.slack": expect.any(String),
    });
    const error = new ApiError(400, "VALIDATION_ERROR", "bad", [
      { field: "alert_rules[1].channels.slack", issue: "points to 10.0.0.1, which is not a public address" },
      { field: "alert_rules[0].channels.email[2]", issue: "must be an e-mail address" },
    ]);
    expect(scheduleServerErrors(error).fields).toEqual({
      "rules.1.slack": "points to 10.0.0.1, which is not a public address",
      "rules.0.emails": "must be an e-mail address",
    });
  });
});
