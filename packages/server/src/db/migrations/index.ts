import type { Kysely } from "kysely";
import * as foundation from "./2026-11-21-01-foundation.ts";
import * as usage from "./2026-11-21-02-usage.ts";
import * as jobsWebhooks from "./2026-11-21-03-jobs-webhooks.ts";
import * as analyses from "./2026-11-21-04-analyses.ts";
import * as monitoring from "./2026-11-21-05-monitoring-reports.ts";
import * as accounts from "./2026-11-23-01-accounts.ts";
import * as rollups from "./2026-11-23-02-rollups.ts";
import * as projectMatching from "./2026-11-24-01-project-matching.ts";
import * as remeasures from "./2026-11-24-02-remeasures.ts";
import * as judgeVerdicts from "./2026-11-24-03-judge-verdicts.ts";
import * as searches from "./2026-11-24-04-searches.ts";
import * as citationCategories from "./2026-11-24-05-citation-categories.ts";
import * as promptTags from "./2026-11-24-06-prompt-tags.ts";
import * as reportShares from "./2026-11-24-07-report-shares.ts";
import * as factsOpportunities from "./2026-11-24-08-facts-opportunities.ts";
import * as alertChannels from "./2026-11-24-09-alert-channels.ts";
import * as resourceVersions from "./2026-11-24-10-resource-versions.ts";
import * as readsAtScale from "./2026-11-24-11-reads-at-scale.ts";
import * as answerCosts from "./2026-11-24-12-answer-costs.ts";
import * as vendorBatches from "./2026-11-24-13-vendor-batches.ts";
import * as firstDay from "./2026-11-26-01-first-day.ts";
import * as branding from "./2026-11-26-02-branding.ts";
import * as traffic from "./2026-11-26-03-traffic.ts";
import * as trafficIngest from "./2026-11-26-04-traffic-ingest.ts";
import * as trafficGa4 from "./2026-11-26-05-traffic-ga4.ts";
import * as changes from "./2026-11-27-01-changes.ts";
import * as biViews from "./2026-11-27-02-bi-views.ts";
import * as agencies from "./2026-11-27-03-agencies.ts";
import * as biAgencies from "./2026-11-27-04-bi-agencies.ts";
import * as conversations from "./2026-11-27-05-conversations.ts";
import * as resultsPartitions from "./2026-11-28-01-results-partitions.ts";
import * as resultSpills from "./2026-11-29-01-result-spills.ts";
import * as oauth from "./2026-11-30-01-oauth.ts";

/** A migration: frozen in time, it is typed against no particular schema and imports nothing of the app. */
export interface Migration {
  name: string;
  // biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no particular schema.
  up(db: Kysely<any>): Promise<void>;
}

/** Every migration, oldest first. Append only. */
export const MIGRATIONS: Migration[] = [
  { name: "2026-11-21-01-foundation", up: foundation.up },
  { name: "2026-11-21-02-usage", up: usage.up },
  { name: "2026-11-21-03-jobs-webhooks", up: jobsWebhooks.up },
  { name: "2026-11-21-04-analyses", up: analyses.up },
  { name: "2026-11-21-05-monitoring-reports", up: monitoring.up },
  { name: "2026-11-23-01-accounts", up: accounts.up },
  { name: "2026-11-23-02-rollups", up: rollups.up },
  { name: "2026-11-24-01-project-matching", up: projectMatching.up },
  { name: "2026-11-24-02-remeasures", up: remeasures.up },
  { name: "2026-11-24-03-judge-verdicts", up: judgeVerdicts.up },
  { name: "2026-11-24-04-searches", up: searches.up },
  { name: "2026-11-24-05-citation-categories", up: citationCategories.up },
  { name: "2026-11-24-06-prompt-tags", up: promptTags.up },
  { name: "2026-11-24-07-report-shares", up: reportShares.up },
  { name: "2026-11-24-08-facts-opportunities", up: factsOpportunities.up },
  { name: "2026-11-24-09-alert-channels", up: alertChannels.up },
  { name: "2026-11-24-10-resource-versions", up: resourceVersions.up },
  { name: "2026-11-24-11-reads-at-scale", up: readsAtScale.up },
  { name: "2026-11-24-12-answer-costs", up: answerCosts.up },
  { name: "2026-11-24-13-vendor-batches", up: vendorBatches.up },
  { name: "2026-11-26-01-first-day", up: firstDay.up },
  { name: "2026-11-26-02-branding", up: branding.up },
  { name: "2026-11-26-03-traffic", up: traffic.up },
  { name: "2026-11-26-04-traffic-ingest", up: trafficIngest.up },
  { name: "2026-11-26-05-traffic-ga4", up: trafficGa4.up },
  { name: "2026-11-27-01-changes", up: changes.up },
  { name: "2026-11-27-02-bi-views", up: biViews.up },
  { name: "2026-11-27-03-agencies", up: agencies.up },
  { name: "2026-11-27-04-bi-agencies", up: biAgencies.up },
  { name: "2026-11-27-05-conversations", up: conversations.up },
  { name: "2026-11-28-01-results-partitions", up: resultsPartitions.up },
  { name: "2026-11-29-01-result-spills", up: resultSpills.up },
  { name: "2026-11-30-01-oauth", up: oauth.up },
];
