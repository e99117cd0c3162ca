import type { Route } from "../route.ts";
import { analyzeRoute, getAnalysisRoute, listAnalysesRoute } from "./analyses/routes.ts";
import {
  competitorsRoute,
  projectMetricsRoute,
  projectSearchesRoute,
  projectSourcesRoute,
  promptMetricsRoute,
} from "./analytics/routes.ts";
import { competitorSuggestionsRoute, trackCompetitorRoute } from "./analytics/suggestions.ts";
import {
  createChangeRoute,
  deleteChangeRoute,
  getChangeRoute,
  listChangesRoute,
  scheduleChangeSamplesRoute,
} from "./experiments/routes.ts";
import {
  acknowledgeAlertRoute,
  createMonitoringRoute,
  deleteMonitoringRoute,
  getMonitoringRoute,
  listAlertsRoute,
  listMonitoringRoute,
  listMonitoringRunsRoute,
  reopenAlertRoute,
  runMonitoringRoute,
  updateMonitoringRoute,
} from "./monitoring/routes.ts";
import { opportunitiesRoute } from "./opportunities/routes.ts";
import { suggestBrandRoute } from "./projects/brand-suggestion-routes.ts";
import { suggestPromptsRoute } from "./projects/prompt-suggestion-routes.ts";
import { getRemeasureRoute, listRemeasuresRoute, remeasureProjectRoute } from "./projects/remeasure-routes.ts";
import {
  addPromptRoute,
  changePromptRoute,
  createProjectRoute,
  deleteProjectRoute,
  getProjectRoute,
  listProjectsRoute,
  removePromptRoute,
  restoreProjectRoute,
  updateProjectRoute,
} from "./projects/routes.ts";
import {
  createReportShareRoute,
  getReportRoute,
  listReportSharesRoute,
  listReportsRoute,
  revokeReportShareRoute,
} from "./reports/routes.ts";
import { getResultRoute, listResultsRoute } from "./results/routes.ts";
import {
  connectTrafficGa4Route,
  disconnectTrafficGa4Route,
  getTrafficGa4Route,
  syncTrafficGa4Route,
} from "./traffic/ga4.ts";
import { importTrafficLogsRoute } from "./traffic/logs.ts";
import { getAccessRoute, getTrafficPagesRoute, getTrafficRoute } from "./traffic/routes.ts";
import { getUsageRoute } from "./usage/routes.ts";
import {
  createWebhookRoute,
  deleteWebhookRoute,
  getWebhookRoute,
  listWebhookDeliveriesRoute,
  listWebhooksRoute,
  redeliverWebhookRoute,
  updateWebhookRoute,
} from "./webhooks/routes.ts";

/** Every endpoint of API v1. The security suite and the OpenAPI document iterate this list. */
export const V1_ROUTES: Route[] = [
  listProjectsRoute,
  createProjectRoute,
  getProjectRoute,
  updateProjectRoute,
  deleteProjectRoute,
  restoreProjectRoute,
  addPromptRoute,
  changePromptRoute,
  removePromptRoute,
  suggestPromptsRoute,
  suggestBrandRoute,
  remeasureProjectRoute,
  listRemeasuresRoute,
  getRemeasureRoute,
  analyzeRoute,
  listAnalysesRoute,
  getAnalysisRoute,
  listResultsRoute,
  getResultRoute,
  projectMetricsRoute,
  promptMetricsRoute,
  projectSourcesRoute,
  competitorsRoute,
  projectSearchesRoute,
  competitorSuggestionsRoute,
  trackCompetitorRoute,
  listMonitoringRoute,
  createMonitoringRoute,
  getMonitoringRoute,
  updateMonitoringRoute,
  deleteMonitoringRoute,
  runMonitoringRoute,
  listMonitoringRunsRoute,
  listAlertsRoute,
  acknowledgeAlertRoute,
  reopenAlertRoute,
  opportunitiesRoute,
  createChangeRoute,
  listChangesRoute,
  getChangeRoute,
  deleteChangeRoute,
  scheduleChangeSamplesRoute,
  getTrafficRoute,
  getTrafficPagesRoute,
  getAccessRoute,
  importTrafficLogsRoute,
  connectTrafficGa4Route,
  getTrafficGa4Route,
  disconnectTrafficGa4Route,
  syncTrafficGa4Route,
  listReportsRoute,
  getReportRoute,
  createReportShareRoute,
  listReportSharesRoute,
  revokeReportShareRoute,
  getUsageRoute,
  listWebhooksRoute,
  createWebhookRoute,
  getWebhookRoute,
  updateWebhookRoute,
  deleteWebhookRoute,
  listWebhookDeliveriesRoute,
  redeliverWebhookRoute,
];
