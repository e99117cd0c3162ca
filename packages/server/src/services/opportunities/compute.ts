import { createHash } from "node:crypto";
import type { Static } from "typebox";
import { percent, points, proportion as shown } from "../glossary/format.ts";
import { GLOSSARY } from "../glossary/metrics.ts";
import { engineTitle } from "../labels.ts";
import { proportion, testDifference } from "../measurement/aggregate.ts";
import type { FactSheet } from "../projects/types.ts";
import { type Contradiction, contradictions } from "./facts.ts";
import type { StoredOpportunitiesSchema } from "./schemas.ts";

export type Opportunity = Static<typeof StoredOpportunitiesSchema>["data"][number];

/** One stored answer, as the computation reads it. */
export interface AnswerRow {
  id: string;
  analysis_id: string;
  engine: string;
  prompt: string;
  created_at: string;
  mentioned: boolean;
  stance: "recommended" | "mentioned" | "warned" | null;
  text: string;
  citations: { url: string; domain: string; brand: boolean; competitor: string | null }[];
  competitorsNamed: string[];
  searches: string[];
}

export interface Subject {
  brandNames: string[];
  competitorNames: string[];
  facts: FactSheet;
}

/** A site must be cited in at least this many gap answers, and a search run in as many answers. */
const MIN_ANSWERS = 2;
/** Each side of a drop needs this many answers for the test to say anything. */
const MIN_SIDE = 3;
const MAX_OPPORTUNITIES = 100;

export const WEIGHTS: Record<Opportunity["kind"], number> = {
  wrong_facts: 1.5,
  negative_answers: 1.25,
  visibility_drop: 1,
  competitors_preferred: 1,
  citation_gap: 1,
  search_gap: 0.75,
  crawler_blocked: 1,
  crawler_errors: 1,
};

export function idOf(kind: string, subject: string): string {
  return `opp_${createHash("sha256").update(`${kind}\u0000${subject}`).digest("base64url").slice(0, 24)}`;
}

export const round = (v: number) => Math.round(v * 10_000) / 10_000;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
/** Titles and explanations are read by people: engines by their names, never their ids (issue 24). */
const engineNames = (engines: string[]) => engines.map(engineTitle).join(", ");
const VISIBILITY = GLOSSARY.visibility.name;

/** Answers, most recent first, and what they have in common: ids, engines, prompts. */
function evidence(rows: AnswerRow[]) {
  const sorted = [...rows].sort((a, b) =>
    a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1,
  );
  return {
    sorted,
    answers: rows.length,
    engines: [...new Set(rows.map((r) => r.engine))].sort(),
    prompts: [...new Set(rows.map((r) => r.prompt))].sort(),
    evidence: sorted.slice(0, 5).map((r) => r.id),
  };
}

function base(kind: Opportunity["kind"], subject: string, rows: AnswerRow[], total: number, weight = 1) {
  const { sorted, ...shared } = evidence(rows);
  return {
    sorted,
    opportunity: {
      id: idOf(kind, subject),
      kind,
      impact: round(Math.min(1, (rows.length / Math.max(1, total)) * WEIGHTS[kind] * weight)),
      ...shared,
      domain: null,
      urls: [],
      search: null,
      change: null,
      fact: null,
      crawler: null,
    },
  };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group === undefined) groups.set(k, [item]);
    else group.push(item);
  }
  return groups;
}

function wrongFacts(rows: AnswerRow[], subject: Subject, total: number): Opportunity[] {
  const found: { row: AnswerRow; c: Contradiction }[] = [];
  for (const row of rows) {
    for (const c of contradictions(row.text, subject.facts, subject.brandNames, subject.competitorNames))
      found.push({ row, c });
  }
  return [...groupBy(found, ({ c }) => `${c.field}\u0000${c.stated.toLowerCase()}`).values()].map((group) => {
    const { sorted, opportunity } = base(
      "wrong_facts",
      `${group[0]?.c.field}:${group[0]?.c.stated.toLowerCase()}`,
      group.map((g) => g.row),
      total,
    );
    const latest = group.find((g) => g.row.id === sorted[0]?.id) ?? group[0];
    const c = latest?.c as Contradiction;
    return {
      ...opportunity,
      title: `Correct what engines say about your ${c.field.replace("_", " ")}: "${c.stated}" instead of "${c.expected}"`,
      explanation: `${plural(group.length, "answer")} state${group.length === 1 ? "s" : ""} "${c.stated}" where your fact sheet says "${c.expected}". Publish the correct figure where engines read it (your site's about and pricing pages, your profiles on the sites they cite) and ask the sources stating it to correct it.`,
      fact: { field: c.field, expected: c.expected, stated: c.stated, excerpt: c.excerpt },
    };
  });
}

function negativeAnswers(rows: AnswerRow[], total: number): Opportunity[] {
  const warned = rows.filter((r) => r.stance === "warned");
  return [...groupBy(warned, (r) => r.prompt).entries()].map(([prompt, group]) => {
    const { opportunity } = base("negative_answers", prompt, group, total);
    const asked = rows.filter((r) => r.prompt === prompt).length;
    return {
      ...opportunity,
      title: `Answer the criticism engines repeat for "${prompt}"`,
      explanation: `${plural(group.length, "answer")} of ${asked} to this prompt warn against the brand (on ${engineNames(opportunity.engines)}). Read them, fix what is true, and publish a clear answer to what is not where the cited sources will see it.`,
    };
  });
}

/** Per prompt and engine: the latest analysis against the earlier ones of the window. */
function drops(rows: AnswerRow[], total: number): { found: Opportunity[]; keys: Set<string> } {
  const found: Opportunity[] = [];
  const keys = new Set<string>();
  for (const [key, group] of groupBy(rows, (r) => `${r.prompt}\u0000${r.engine}`)) {
    // Timestamps are ISO texts: the greatest sorts last.
    const latestAnalysis = [...group].sort((x, y) => (x.created_at < y.created_at ? -1 : 1)).at(-1)?.analysis_id;
    const after = group.filter((r) => r.analysis_id === latestAnalysis);
    const before = group.filter((r) => r.analysis_id !== latestAnalysis);
    if (after.length < MIN_SIDE || before.length < MIN_SIDE) continue;
    const a = proportion(before.filter((r) => r.mentioned).length, before.length);
    const b = proportion(after.filter((r) => r.mentioned).length, after.length);
    const test = testDifference(a, b);
    if (!test.significant || test.difference === null || test.difference >= 0 || test.p_value === null) continue;
    keys.add(key);
    const [prompt, engine] = key.split("\u0000") as [string, string];
    const { opportunity } = base("visibility_drop", key, after, total, Math.min(2, -test.difference * 2));
    found.push({
      ...opportunity,
      title: `Win back "${prompt}" on ${engineTitle(engine)}`,
      explanation: `${VISIBILITY} fell from ${shown(a)} in the earlier answers to ${shown(b)} in the latest analysis: ${points(test.difference)} (p = ${test.p_value < 0.001 ? "< 0.001" : test.p_value.toFixed(3)}), a real drop, not chance. Read the latest answers to see who took the place and which sources they cite.`,
      change: { before: a, after: b, difference: test.difference, p_value: test.p_value },
    });
  }
  return { found, keys };
}

function competitorsPreferred(rows: AnswerRow[], total: number, skip: Set<string>): Opportunity[] {
  const found: Opportunity[] = [];
  for (const [key, group] of groupBy(rows, (r) => `${r.prompt}\u0000${r.engine}`)) {
    if (skip.has(key) || group.length < MIN_SIDE) continue;
    const named = group.filter((r) => r.mentioned).length;
    const competing = group.filter((r) => !r.mentioned && r.competitorsNamed.length > 0);
    if (named / group.length > 0.1 || competing.length / group.length < 0.5) continue;
    const counts = new Map<string, number>();
    for (const r of competing) for (const name of r.competitorsNamed) counts.set(name, (counts.get(name) ?? 0) + 1);
    const leaders = [...counts.entries()].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).slice(0, 3);
    const [prompt, engine] = key.split("\u0000") as [string, string];
    const { opportunity } = base("competitors_preferred", key, competing, total);
    found.push({
      ...opportunity,
      title: `Get into the answers to "${prompt}" on ${engineTitle(engine)}`,
      explanation: `${plural(competing.length, "answer")} of ${group.length} name competitors (${leaders.map(([n, c]) => `${n} ${c}×`).join(", ")}) and not the brand: its ${VISIBILITY.toLowerCase()} here is ${percent(named / group.length)} (${named} of ${group.length}). Cover this question on your site and on the sources these answers cite.`,
    });
  }
  return found;
}

function citationGaps(rows: AnswerRow[], total: number): Opportunity[] {
  const gaps = new Map<string, { rows: AnswerRow[]; urls: Map<string, number> }>();
  const citing = new Map<string, { answers: number; brandNamed: number }>();
  for (const row of rows) {
    const domains = new Set<string>();
    for (const c of row.citations) if (!c.brand && c.competitor === null) domains.add(c.domain);
    for (const domain of domains) {
      const seen = citing.get(domain) ?? { answers: 0, brandNamed: 0 };
      seen.answers++;
      if (row.mentioned) seen.brandNamed++;
      citing.set(domain, seen);
    }
    if (row.mentioned || row.competitorsNamed.length === 0) continue;
    for (const domain of domains) {
      const gap = gaps.get(domain) ?? { rows: [] as AnswerRow[], urls: new Map<string, number>() };
      gap.rows.push(row);
      for (const c of row.citations) if (c.domain === domain) gap.urls.set(c.url, (gap.urls.get(c.url) ?? 0) + 1);
      gaps.set(domain, gap);
    }
  }
  return [...gaps.entries()]
    .filter(([, gap]) => gap.rows.length >= MIN_ANSWERS)
    .map(([domain, gap]) => {
      const seen = citing.get(domain) ?? { answers: gap.rows.length, brandNamed: 0 };
      const { opportunity } = base("citation_gap", domain, gap.rows, total);
      return {
        ...opportunity,
        title: `Get covered on ${domain}`,
        explanation: `Engines cited ${domain} in ${plural(seen.answers, "answer")}; in ${gap.rows.length} of them competitors are named and the brand is not (its ${VISIBILITY.toLowerCase()} in the answers citing it: ${percent(seen.brandNamed / seen.answers)}, ${seen.brandNamed} of ${seen.answers}). A mention, review or listing there feeds the answers.`,
        domain,
        urls: [...gap.urls.entries()]
          .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
          .slice(0, 3)
          .map(([url]) => url),
      };
    });
}

function searchGaps(rows: AnswerRow[], total: number): Opportunity[] {
  const bySearch = new Map<string, AnswerRow[]>();
  for (const row of rows) {
    for (const search of new Set(row.searches.map((s) => s.toLowerCase()))) {
      const group = bySearch.get(search);
      if (group === undefined) bySearch.set(search, [row]);
      else group.push(row);
    }
  }
  return [...bySearch.entries()]
    .filter(([, group]) => group.length >= MIN_ANSWERS && !group.some((r) => r.citations.some((c) => c.brand)))
    .map(([search, group]) => {
      const { opportunity } = base("search_gap", search, group, total);
      return {
        ...opportunity,
        title: `Answer "${search}" on your site`,
        explanation: `Engines searched the web for "${search}" in ${plural(group.length, "answer")}, and none of those answers cites your site. A page that answers this search directly gives them something of yours to cite.`,
        search,
      };
    });
}

/**
 * Every opportunity the answers support, with `others` found elsewhere (crawlers.ts: the access
 * audit and logs), the most valuable first (`impact`, then the most answers, then the id, so that
 * the order is stable). Pure: the same answers give the same list.
 */
export function computeOpportunities(rows: AnswerRow[], subject: Subject, others: Opportunity[] = []): Opportunity[] {
  const total = rows.length;
  const { found: dropped, keys } = drops(rows, total);
  return [
    ...wrongFacts(rows, subject, total),
    ...negativeAnswers(rows, total),
    ...dropped,
    ...competitorsPreferred(rows, total, keys),
    ...citationGaps(rows, total),
    ...searchGaps(rows, total),
    ...others,
  ]
    .sort((a, b) => b.impact - a.impact || b.answers - a.answers || (a.id < b.id ? -1 : 1))
    .slice(0, MAX_OPPORTUNITIES);
}
