import { getAccess } from "../../../services/traffic/access.ts";
import { trafficPages } from "../../../services/traffic/pages.ts";
import {
  TrafficAccessSchema,
  TrafficPagesQuery,
  TrafficPagesSchema,
  TrafficQuery,
  TrafficSchema,
} from "../../../services/traffic/schemas.ts";
import { trafficSummary } from "../../../services/traffic/summary.ts";
import { defineRoute } from "../../route.ts";
import { IdParams } from "../../schema.ts";

export const getTrafficRoute = defineRoute({
  operationId: "getProjectTraffic",
  method: "GET",
  path: "/projects/:id/traffic",
  reads: "replica",
  tag: "Traffic",
  summary: "A brand's AI crawler hits and AI referrals",
  description:
    "What the brand's own access logs (imported with `sightline traffic import`) say over a period: AI bot hits per bot and verification, visits referred per engine, and both per day. Only AI bots' hits and AI-referred visits are counted, as daily counts per page; no visitor's address or user agent is kept.",
  scope: "projects",
  extension: true,
  params: IdParams,
  query: TrafficQuery,
  success: { status: 200, description: "The brand's AI traffic.", schema: TrafficSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, query }) => trafficSummary(ctx, params.id, query),
});

export const getTrafficPagesRoute = defineRoute({
  operationId: "getProjectTrafficPages",
  method: "GET",
  path: "/projects/:id/traffic/pages",
  reads: "replica",
  tag: "Traffic",
  summary: "The brand's pages: crawled, cited and visited",
  description:
    "Every page of the brand's domains that AI bots crawled, engines cited or engines sent visitors to in the period, joined by path: crawls by bot (verified, errors served, last crawl), citations by engine from the measured answers, visits referred by engine, and whether it was crawled but never cited, cited but not crawled, or cited and visited. Most cited first; `limit` (≤ 100) and `page` page through them.",
  scope: "projects",
  extension: true,
  params: IdParams,
  query: TrafficPagesQuery,
  success: { status: 200, description: "The brand's pages.", schema: TrafficPagesSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, query }) => trafficPages(ctx, params.id, query),
});

export const getAccessRoute = defineRoute({
  operationId: "getProjectAccess",
  method: "GET",
  path: "/projects/:id/access",
  tag: "Traffic",
  summary: "Whether AI bots may read the brand's domains",
  description:
    "The access audit of each brand domain: its robots.txt read for each AI bot (allowed, blocked or partially blocked, with the line and the group that decide, as RFC 9309 reads them; a robots.txt answering 404 allows everything, one answering a 5xx blocks everything), whether it has an llms.txt, and the statuses each bot was served in the last 7 days (from the brand's access logs). Read with the outbound address rules and re-checked daily; a domain never checked is checked before the answer. A bot feeding an engine the brand tracks that is blocked, or served errors, is an opportunity (`crawler_blocked`, `crawler_errors`).",
  scope: "projects",
  extension: true,
  params: IdParams,
  success: { status: 200, description: "The brand's access audit.", schema: TrafficAccessSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => getAccess(ctx, params.id),
});
