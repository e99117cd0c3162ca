import { proportion } from "../../src/services/measurement/aggregate.ts";
import type { Harness, Tenant } from "./harness.ts";

/** A brand with two competitors and three prompts, as the analytics and re-measure tests use it. */
export const ANALYTICS_BRAND = {
  name: "Acme CRM",
  aliases: ["Acme"],
  primary_domain: "acmecrm.com",
  competitors: [
    { name: "HubSpot", domains: ["hubspot.com"] },
    { name: "Pipedrive", domains: ["pipedrive.com"] },
  ],
  prompts: ["best CRM for a small agency", "CRM with a good Slack integration", "cheapest CRM for startups"],
};

/** What these tests read of a result from `GET /v1/results`. */
export interface StoredResult {
  id: string;
  engine: string;
  prompt: string;
  status: string;
  created_at: string;
  brand: { mentioned: boolean; position: number | null; sentiment: number | null } | null;
  brand_cited: boolean;
  score: number | null;
  score_version: string;
  citations: { url: string; domain: string; brand: boolean; competitor: string | null; category: string }[];
  competitors: { name: string; mentioned: boolean; position: number | null }[];
}

/** Every result of a brand, page by page, as a client would read them. */
export async function allResults(h: Harness, t: Tenant, projectId: string): Promise<StoredResult[]> {
  const out: StoredResult[] = [];
  let cursor: string | undefined;
  do {
    const page = (
      await h.call("listResults", {
        key: t.key,
        query: { project_id: projectId, limit: 100, ...(cursor === undefined ? {} : { cursor }) },
      })
    ).json();
    out.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return out;
}

/** The figures of a set of answers, recomputed the long way from the results API. */
export function recomputeFigures(results: StoredResult[], competitorNames: readonly string[]) {
  const ok = results.filter((r) => r.status === "succeeded");
  const mentioned = ok.filter((r) => r.brand?.mentioned === true);
  const competitor = (name: string) => ok.filter((r) => r.competitors.some((c) => c.name === name && c.mentioned));
  const all = mentioned.length + competitorNames.reduce((sum, name) => sum + competitor(name).length, 0);
  const positions = mentioned.map((r) => r.brand?.position).filter((p): p is number => typeof p === "number");
  const sentiments = mentioned.map((r) => r.brand?.sentiment).filter((s): s is number => typeof s === "number");
  const withCitations = ok.filter((r) => r.citations.length > 0);
  // Half up, as the API rounds, after the float noise of the sums (added in another order) is dropped.
  const round = (v: number, d = 4) => Math.round(Number((v * 10 ** d).toPrecision(12))) / 10 ** d;
  return {
    visibility: proportion(mentioned.length, ok.length),
    share_of_voice: all === 0 ? null : round(mentioned.length / all),
    average_position: positions.length === 0 ? null : round(positions.reduce((a, b) => a + b, 0) / positions.length),
    sentiment_score:
      sentiments.length === 0
        ? null
        : round((sentiments.reduce((a, b) => a + b, 0) / sentiments.length / 2 + 0.5) * 100, 2),
    citation_rate: proportion(withCitations.filter((r) => r.brand_cited).length, withCitations.length),
    visibility_score: ok.length === 0 ? null : round(ok.reduce((sum, r) => sum + (r.score ?? 0), 0) / ok.length, 2),
    competitors: competitorNames.map((name) => ({ name, mentioned: competitor(name).length })),
  };
}
