import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// BI without an export job (issue 28, ADR 0035, docs/bi.md). PostgreSQL only; on SQLite it does nothing
// (`sightline bi export` writes the same views as CSV files there).
// - bi_grants: which database login role reads which workspace. A role is created by `sightline bi
//   grant`; its password is never stored here (PostgreSQL keeps its SCRAM verifier).
// - sightline_bi_views: a role that cannot log in. It owns the views of schema `bi` and holds SELECT
//   on the tables they read, nothing else. The views are plain (not security_invoker): they read the
//   tables with its privileges, while `current_user` stays the login role that queries them.
// - Row-level security on every table a view reads, with one policy for sightline_bi_views: a row is
//   visible when its workspace is the one bi_grants gives the querying login role. No grant row: no
//   rows. The tables' owner (Sightline's own role) is not subject to RLS (no FORCE), so the app reads
//   and writes as before.
// Roles are cluster-wide: the role is created only when missing, and a concurrent creation (another
// database of the same cluster migrating at the same moment) is tolerated. When Sightline's role may not
// create roles (no CREATEROLE), only bi_grants is created and `bi grant` says how to finish (docs/bi.md);
// every statement here can run again.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

const OWNER = "sightline_bi_views";

/** The tables the views read, each with its workspace column, under row-level security. */
const TABLES = ["projects", "results", "traffic_bot_hits", "traffic_referrals"];

/** A live brand's rows only; the join repeats the workspace so that a row never meets another's brand. */
const LIVE_BRAND =
  "JOIN projects p ON p.id = t.project_id AND p.workspace_id = t.workspace_id AND p.deleted_at IS NULL";

const WORKSPACE = { workspace_id: "The workspace (ws_…)." };
const BRAND = { ...WORKSPACE, brand_id: "The brand (bi.brands.id)." };

interface View {
  name: string;
  comment: string;
  query: string;
  columns: Record<string, string>;
}

const VIEWS: View[] = [
  {
    name: "brands",
    comment: "The workspace's brands (Sightline projects), live ones only.",
    query: `SELECT t.id, t.workspace_id, t.name, t.primary_domain, t.created_at
      FROM projects t WHERE t.deleted_at IS NULL`,
    columns: {
      id: "The brand's id (prj_…); brand_id in the other views.",
      ...WORKSPACE,
      name: "The brand's name.",
      primary_domain: "The brand's main domain.",
      created_at: "When the brand was created.",
    },
  },
  {
    name: "answers",
    comment: "One row per answer an engine gave (failed requests are not answers), as measured for the brand.",
    query: `SELECT t.id, t.workspace_id, t.project_id AS brand_id, t.analysis_id, t.engine, t.model, t.prompt,
        t.sample, t.created_at AS answered_at, t.mentioned, t.position,
        50 + 50 * t.sentiment AS sentiment,
        t.brand_cited, t.citation_count, t.brand_citation_count, t.score,
        (t.cost_micros::numeric / 1000000) AS cost_usd
      FROM results t ${LIVE_BRAND}
      WHERE t.status = 'succeeded'`,
    columns: {
      id: "The answer's id (res_…).",
      ...BRAND,
      analysis_id: "The analysis (ana_…) that asked.",
      engine: "The engine's id (chatgpt, claude, gemini, perplexity, …).",
      model: "The model that answered, as the vendor named it.",
      prompt: "The prompt asked.",
      sample: "Which repetition of the prompt (0, 1, …) within the analysis.",
      answered_at: "When the answer was stored.",
      mentioned: "Whether the answer names the brand.",
      position: "The brand's rank among the tracked brands the answer names (1 = first); null when not named.",
      sentiment: "The brand's sentiment, 0 to 100 (50 neutral); null when not named.",
      brand_cited: "Whether the answer cites a page of the brand's domains.",
      citation_count: "Citations in the answer.",
      brand_citation_count: "Citations of the brand's domains.",
      score: "The visibility score, 0 to 100.",
      cost_usd: "What the answer cost, in USD; null when unknown.",
    },
  },
  {
    name: "citations",
    comment: "One row per source an answer cites.",
    query: `SELECT t.id AS answer_id, t.workspace_id, t.project_id AS brand_id, t.engine,
        c.n::integer AS position, c.value ->> 'url' AS url, c.value ->> 'domain' AS domain,
        (c.value ->> 'brand')::boolean AS is_brand, c.value ->> 'competitor' AS competitor,
        c.value ->> 'category' AS category, t.created_at AS answered_at
      FROM results t ${LIVE_BRAND}
      CROSS JOIN LATERAL jsonb_array_elements(
        CASE WHEN jsonb_typeof(t.measure -> 'citations') = 'array' THEN t.measure -> 'citations' ELSE '[]'::jsonb END
      ) WITH ORDINALITY AS c(value, n)
      WHERE t.status = 'succeeded'`,
    columns: {
      answer_id: "The answer (bi.answers.id).",
      ...BRAND,
      position: "The source's order in the answer (1 = first).",
      url: "The page cited.",
      domain: "Its domain.",
      is_brand: "Whether it is on one of the brand's domains.",
      competitor: "The competitor whose domain it is on, if any.",
      category:
        "owned, competitor, social, reference, news, review or other; null for answers measured before categories.",
      answered_at: "When the answer was stored.",
    },
  },
  {
    name: "daily_metrics",
    comment: "The answers counted per brand, engine, prompt and UTC day.",
    query: `SELECT t.workspace_id, t.project_id AS brand_id, t.engine, t.prompt,
        (t.created_at AT TIME ZONE 'UTC')::date AS day,
        count(*)::integer AS answers,
        (count(*) FILTER (WHERE t.mentioned))::integer AS mentioned,
        (count(*) FILTER (WHERE t.mentioned))::double precision / count(*) AS visibility,
        (count(*) FILTER (WHERE t.brand_cited))::integer AS brand_cited,
        (avg(t.position) FILTER (WHERE t.mentioned))::double precision AS avg_position,
        avg(50 + 50 * t.sentiment) FILTER (WHERE t.mentioned) AS avg_sentiment,
        avg(t.score) AS avg_score
      FROM results t ${LIVE_BRAND}
      WHERE t.status = 'succeeded'
      GROUP BY t.workspace_id, t.project_id, t.engine, t.prompt, (t.created_at AT TIME ZONE 'UTC')::date`,
    columns: {
      day: "The UTC day the answers were stored.",
      ...BRAND,
      answers: "Answers counted.",
      mentioned: "Answers naming the brand.",
      visibility: "mentioned ÷ answers, a fraction from 0 to 1 (format it as a percentage).",
      brand_cited: "Answers citing the brand's domains.",
      avg_position: "The brand's average rank where named (1 = first); null when never named.",
      avg_sentiment: "Average sentiment, 0 to 100 (50 neutral), of the answers naming the brand.",
      avg_score: "Average visibility score, 0 to 100.",
    },
  },
  {
    name: "traffic_bot_hits",
    comment: "AI bots' hits on the brand's site per day, from its access logs (empty without logs).",
    query: `SELECT t.day::date AS day, t.workspace_id, t.project_id AS brand_id, t.host, t.path, t.bot,
        t.verification, t.status, t.hits, t.last_at::timestamptz AS last_hit_at
      FROM traffic_bot_hits t ${LIVE_BRAND}`,
    columns: {
      day: "The UTC day.",
      ...BRAND,
      host: "The host asked for; empty when the log does not say.",
      path: "The page.",
      bot: "The bot's name (GPTBot, ClaudeBot, …).",
      verification: "verified, spoofed or unverifiable, against the operator's published addresses.",
      status: "The HTTP status served; 0 when the log does not say.",
      hits: "Hits that day.",
      last_hit_at: "The day's last hit.",
    },
  },
  {
    name: "traffic_referrals",
    comment: "Visits an AI engine referred to the brand's site per day (empty without logs or GA4).",
    query: `SELECT t.day::date AS day, t.workspace_id, t.project_id AS brand_id, t.host, t.path, t.engine, t.visits
      FROM traffic_referrals t ${LIVE_BRAND}`,
    columns: {
      day: "The UTC day.",
      ...BRAND,
      host: "The host visited; (ga4) for counts read from Google Analytics.",
      path: "The landing page.",
      engine: "The engine that referred the visit.",
      visits: "Visits that day.",
    },
  },
];

function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

export async function up(db: AnyDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`CREATE TABLE IF NOT EXISTS bi_grants (
    role_name text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS bi_grants_workspace ON bi_grants (workspace_id)`.execute(db);

  const me = await sql<{ superuser: boolean; createrole: boolean; member: boolean }>`
    SELECT r.rolsuper AS superuser, r.rolcreaterole AS createrole,
      EXISTS (SELECT FROM pg_roles WHERE rolname = ${OWNER} AND pg_has_role(current_user, oid, 'USAGE')) AS member
    FROM pg_roles r WHERE r.rolname = current_user`.execute(db);
  const who = me.rows[0];
  if (who === undefined) return;
  // Without the right to create the role, or to own views as it, BI stays off (docs/bi.md says how to finish).
  if (!who.superuser && !who.member && !who.createrole) return;

  await sql
    .raw(`DO $$ BEGIN
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${OWNER}') THEN
        BEGIN
          CREATE ROLE ${OWNER} NOLOGIN;
        EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
        END;
      END IF;
    END $$`)
    .execute(db);
  // A non-superuser hands views only to a role it is a member of. CREATEROLE lets it become one on
  // PostgreSQL 15; from 16 on, only of a role it created (or holds ADMIN OPTION on): else BI stays off.
  if (!who.superuser && !who.member) {
    await sql
      .raw(`DO $$ BEGIN
        GRANT ${OWNER} TO CURRENT_USER;
      EXCEPTION WHEN insufficient_privilege THEN NULL;
      END $$`)
      .execute(db);
    const joined = await sql<{
      member: boolean;
    }>`SELECT pg_has_role(current_user, ${OWNER}, 'USAGE') AS member`.execute(db);
    if (joined.rows[0]?.member !== true) return;
  }

  await sql`CREATE SCHEMA IF NOT EXISTS bi`.execute(db);
  await sql.raw(`GRANT SELECT ON ${[...TABLES, "bi_grants"].join(", ")} TO ${OWNER}`).execute(db);
  for (const table of TABLES) {
    await sql.raw(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`).execute(db);
    await sql.raw(`DROP POLICY IF EXISTS bi_workspace ON ${table}`).execute(db);
    await sql
      .raw(
        `CREATE POLICY bi_workspace ON ${table} AS PERMISSIVE FOR SELECT TO ${OWNER}
         USING (workspace_id = (SELECT g.workspace_id FROM bi_grants g WHERE g.role_name = current_user::text))`,
      )
      .execute(db);
  }

  // ALTER ... OWNER needs the new owner to be allowed to create in the schema; it keeps no such right.
  await sql.raw(`GRANT CREATE ON SCHEMA bi TO ${OWNER}`).execute(db);
  for (const view of VIEWS) {
    await sql.raw(`CREATE OR REPLACE VIEW bi.${view.name} AS ${view.query}`).execute(db);
    await sql.raw(`ALTER VIEW bi.${view.name} OWNER TO ${OWNER}`).execute(db);
    await sql.raw(`COMMENT ON VIEW bi.${view.name} IS ${literal(view.comment)}`).execute(db);
    for (const [column, comment] of Object.entries(view.columns)) {
      await sql.raw(`COMMENT ON COLUMN bi.${view.name}.${column} IS ${literal(comment)}`).execute(db);
    }
  }
  await sql.raw(`REVOKE CREATE ON SCHEMA bi FROM ${OWNER}`).execute(db);
  await sql`REVOKE ALL ON SCHEMA bi FROM PUBLIC`.execute(db);
}
