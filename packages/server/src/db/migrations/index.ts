import type { Migration } from "../migrate.ts";
import * as foundation from "./2026-11-21-01-foundation.ts";
import * as usage from "./2026-11-21-02-usage.ts";
import * as jobsWebhooks from "./2026-11-21-03-jobs-webhooks.ts";
import * as analyses from "./2026-11-21-04-analyses.ts";
import * as monitoring from "./2026-11-21-05-monitoring-reports.ts";

/** Every migration, oldest first. Append only. */
export const MIGRATIONS: Migration[] = [
  { name: "2026-11-21-01-foundation", up: foundation.up },
  { name: "2026-11-21-02-usage", up: usage.up },
  { name: "2026-11-21-03-jobs-webhooks", up: jobsWebhooks.up },
  { name: "2026-11-21-04-analyses", up: analyses.up },
  { name: "2026-11-21-05-monitoring-reports", up: monitoring.up },
];
