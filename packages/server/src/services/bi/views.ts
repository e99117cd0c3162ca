/**
 * The BI views' columns, in order (docs/bi.md): the PostgreSQL views of schema `bi` (migration
 * 2026-11-27-02-bi-views) and the CSV files `sightline bi export` writes have these, with the
 * same meaning. A test holds the two to the same list.
 */
export const BI_VIEWS = {
  brands: ["id", "workspace_id", "name", "primary_domain", "created_at"],
  answers: [
    "id",
    "workspace_id",
    "brand_id",
    "analysis_id",
    "engine",
    "model",
    "prompt",
    "sample",
    "answered_at",
    "mentioned",
    "position",
    "sentiment",
    "brand_cited",
    "citation_count",
    "brand_citation_count",
    "score",
    "cost_usd",
  ],
  citations: [
    "answer_id",
    "workspace_id",
    "brand_id",
    "engine",
    "position",
    "url",
    "domain",
    "is_brand",
    "competitor",
    "category",
    "answered_at",
  ],
  daily_metrics: [
    "workspace_id",
    "brand_id",
    "engine",
    "prompt",
    "day",
    "answers",
    "mentioned",
    "visibility",
    "brand_cited",
    "avg_position",
    "avg_sentiment",
    "avg_score",
  ],
  traffic_bot_hits: [
    "day",
    "workspace_id",
    "brand_id",
    "host",
    "path",
    "bot",
    "verification",
    "status",
    "hits",
    "last_hit_at",
  ],
  traffic_referrals: ["day", "workspace_id", "brand_id", "host", "path", "engine", "visits"],
} as const;

export type BiView = keyof typeof BI_VIEWS;

export const BI_VIEW_NAMES = Object.keys(BI_VIEWS) as BiView[];
