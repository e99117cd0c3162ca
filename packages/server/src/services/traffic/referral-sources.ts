import { type SelectQueryBuilder, sql } from "kysely";
import type { Tables } from "../../db/tables.ts";

/**
 * Where AI-referred visits come from (issue 26): the brand's access logs, or its GA4 property. Both
 * are daily counts in traffic_referrals; GA4's are kept under this host, which no log line can
 * have (a log's host is one of the brand's domains, or ""), so the two sources never share a row:
 * an import adds to its rows, a GA4 sync replaces its own days, and neither touches the other's.
 */
export const GA4_HOST = "(ga4)";

type Referrals = SelectQueryBuilder<Tables, "traffic_referrals", object>;

/**
 * The visits of `query`'s rows per day, page and engine, as each source counted them. A brand
 * with both sources sees the same visits twice (a visitor ChatGPT sends is a log line and a GA4
 * session), so a reader counts the larger of the two (`largerSource`), never their sum: each
 * source misses some (GA4 those who refuse its script or cookies, logs a CDN whose logs were not
 * imported), and the larger is the closer to the truth without counting anyone twice.
 */
export function visitsBySource(query: Referrals) {
  return query
    .select(["day", "path", "engine"])
    .select((eb) => [
      eb.fn.sum<number>(eb.case().when("host", "=", GA4_HOST).then(0).else(eb.ref("visits")).end()).as("logs"),
      eb.fn.sum<number>(eb.case().when("host", "=", GA4_HOST).then(eb.ref("visits")).else(0).end()).as("ga4"),
    ])
    .groupBy(["day", "path", "engine"]);
}

/** The larger of the two sources' counts of a (day, page, engine), over `visitsBySource(…).as("v")`. */
export const largerSource = sql<number>`case when ${sql.ref("v.logs")} >= ${sql.ref("v.ga4")} then ${sql.ref("v.logs")} else ${sql.ref("v.ga4")} end`;
