import type { Static } from "typebox";
import { ApiError, validationError } from "../../errors/api-error.ts";
import { competitorSuggestions } from "../analytics/competitor-suggestions.ts";
import type { ServiceContext } from "../context.ts";
import { simulatedRivals } from "../engines/adapters/sandbox.ts";
import { workspaceEngines } from "../engines/workspace-engines.ts";
import { fold } from "../measurement/normalize.ts";
import { checkEnginesInPlan } from "../plans/engines.ts";
import { parseQuestions, type SuggestionMarket, suggestionInstruction } from "../prompt-suggestions/instruction.ts";
import { sandboxSuggestions } from "../prompt-suggestions/sandbox.ts";
import { askForSuggestions } from "../prompt-suggestions/suggest.ts";
import { limitPerMinute } from "../rate-limits/per-minute.ts";
import { HttpPageFetcher } from "./fetcher.ts";
import { readTypedWebsite, WEBSITE_BUDGET_MS, websiteAddress } from "./read.ts";
import type { BrandSuggestionRequestSchema, BrandSuggestionSchema } from "./schemas.ts";
import { type Suggested, suggestFromPages } from "./suggest.ts";

type BrandSuggestion = Static<typeof BrandSuggestionSchema>;
type Out<T> = { value: T; source: string; detail: string };

const SANDBOX = "sandbox";

/** Websites one workspace may have read per minute: each reading asks a site for up to five pages. */
export const BRAND_SUGGESTION_LIMIT = { perWorkspacePerMinute: 10 } as const;

const MAX_COMPETITORS = 12;
const MAX_PROMPTS = 20;

async function checkRate(ctx: ServiceContext): Promise<void> {
  await limitPerMinute(ctx.counters, {
    kind: "brand-suggestions:workspace",
    key: ctx.workspace.id,
    limit: BRAND_SUGGESTION_LIMIT.perWorkspacePerMinute,
    refusal: (seconds) =>
      `Websites are read at most ${BRAND_SUGGESTION_LIMIT.perWorkspacePerMinute} times a minute per workspace; try again in ${seconds} s.`,
  });
}

const fromPage = <T>(s: Suggested<T>): Out<T> => ({ value: s.value, source: s.source.url, detail: s.source.from });

/** "What are the top CRM tools?" → the names, read defensively from a numbered or bulleted list. */
function parseNames(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const item = /^\s*(?:\d{1,3}\s*[.)]|[-*•–])\s+(.*)$/.exec(line)?.[1];
    if (item === undefined) continue;
    const name = item
      .replace(/\*\*|__|`/g, "")
      .split(/\s+[-–—:(]\s*|:\s|\s\(/)[0]
      ?.replace(/^["“”'‘’]+|["“”'‘’.]+$/g, "")
      .trim();
    if (name !== undefined && name.length >= 2 && name.length <= 60) out.push(name);
  }
  return out;
}

function competitorInstruction(market: SuggestionMarket): string {
  const where = market.country === null ? "" : ` in ${market.country}`;
  return [
    `List the ${MAX_COMPETITORS} brands or products a buyer looking for ${market.category}${where} would most likely compare.`,
    "Reply with a numbered list of names only, one per line, without descriptions.",
  ].join("\n");
}

/**
 * Proposes a brand from its website (`POST /v1/brand-suggestions`): reads a few of its pages
 * (read.ts: robots.txt, the outbound address rules, size, time and redirect limits), takes what
 * they state (suggest.ts), and adds competitors and prompts: from the pages, from the answers of
 * a brand of the workspace with the same domain, and from an engine (the offline sandbox by
 * default, its suggestions labelled `sandbox`). Every suggestion says where it came from. Nothing
 * is stored. A site that cannot be read is a VALIDATION_ERROR on `website`, with the reason.
 */
export async function suggestBrand(
  ctx: ServiceContext,
  input: Static<typeof BrandSuggestionRequestSchema>,
): Promise<BrandSuggestion> {
  const address = websiteAddress(input.website);
  if (address === null) {
    throw validationError([{ field: "website", issue: "not a website address; type it as acme.com" }]);
  }
  const engine = input.engine ?? SANDBOX;
  // The workspace's own engines (Settings → Engines) as well as the server's.
  const known = await workspaceEngines(ctx);
  if (!known.isKnown(engine)) {
    throw validationError([{ field: "engine", issue: `unknown engine; engines are ${known.names().join(", ")}` }]);
  }
  checkEnginesInPlan(ctx, [engine], "engine");
  await checkRate(ctx);

  const fetcher = new HttpPageFetcher({
    allowPrivate: ctx.webhookTargets.allowPrivate,
    resolver: ctx.webhookTargets.resolver,
  });
  // HTTPS, then plain HTTP for an address typed without a scheme: both within the one budget.
  const reading = await readTypedWebsite(fetcher, input.website, address, Date.now() + WEBSITE_BUDGET_MS);
  if (!reading.ok) {
    throw validationError([
      { field: "website", issue: `${reading.reason}; fill in the brand by hand, or try another address` },
    ]);
  }
  const pages = reading.visits.map((visit) => ({
    url: visit.url,
    read: visit.ok,
    ...(visit.reason === undefined ? {} : { reason: visit.reason }),
  }));
  const site = suggestFromPages(reading.pages);
  const home = reading.pages[0]?.url ?? address.toString();
  const notices: string[] = [];

  const name = site.name?.value ?? null;
  const own = [name, ...site.aliases.map((a) => a.value)].filter((n): n is string => n !== null).map(fold);
  const ownDomains = site.domains.map((d) => d.value.toLowerCase());
  const namesBrand = (text: string) => {
    const folded = fold(text);
    const lower = text.toLowerCase();
    return own.some((n) => n !== "" && folded.includes(n)) || ownDomains.some((d) => lower.includes(d));
  };

  const competitors: Out<string>[] = [];
  const addCompetitor = (value: string, source: string, detail: string) => {
    const key = fold(value);
    if (key === "" || own.includes(key) || competitors.some((c) => fold(c.value) === key)) return;
    if (competitors.length < MAX_COMPETITORS) competitors.push({ value, source, detail });
  };
  for (const competitor of site.competitors)
    addCompetitor(competitor.value, competitor.source.url, competitor.source.from);

  // The answers of a brand of this workspace at the same address, when it has some.
  const primary = site.domains[0]?.value;
  if (primary !== undefined) {
    const existing = await ctx.db
      .selectFrom("projects")
      .select("id")
      .where("workspace_id", "=", ctx.workspace.id)
      .where("primary_domain", "=", primary)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    if (existing !== undefined) {
      const found = await competitorSuggestions(ctx, existing.id, {});
      for (const s of found.data) {
        addCompetitor(s.name, "answers", `named in ${s.answers} of ${found.scanned} answers of the last 30 days`);
      }
    }
  }

  const category = site.category?.value ?? null;
  const market: SuggestionMarket = {
    category: category ?? "",
    competitors: competitors.map((c) => c.value),
    examples: [],
    language: site.language?.value ?? null,
    country: site.country?.value ?? null,
    count: MAX_PROMPTS,
  };
  let used = engine;
  const prompts: BrandSuggestion["prompts"] = [];
  if (category === null || namesBrand(category)) {
    notices.push(
      "No prompts were suggested: the pages do not say what the brand sells without naming it. Fill in what it sells, then get prompt suggestions on the brand's Prompts page.",
    );
  } else {
    const ask = async (asked: string) => {
      if (asked === SANDBOX) {
        for (const rival of simulatedRivals(name ?? address.hostname, market.competitors)) {
          addCompetitor(rival, SANDBOX, "simulated market: the offline sandbox's answers name it");
        }
      } else {
        const text = await askForSuggestions(
          ctx,
          asked,
          "competitors",
          competitorInstruction(market),
          market,
          () => "",
        );
        for (const rival of parseNames(text)) addCompetitor(rival, asked, "named when asked for this market's brands");
      }
      const withRivals = { ...market, competitors: competitors.map((c) => c.value) };
      const text = await askForSuggestions(ctx, asked, "prompts", suggestionInstruction(withRivals), withRivals, () =>
        sandboxSuggestions(withRivals),
      );
      const seen = new Set<string>();
      for (const { question, stage } of parseQuestions(text)) {
        if (prompts.length >= MAX_PROMPTS || seen.has(fold(question)) || namesBrand(question)) continue;
        seen.add(fold(question));
        prompts.push({
          value: question,
          source: asked,
          detail: asked === SANDBOX ? "simulated by the offline sandbox" : "asked as a buyer in this market would ask",
          stage,
          tags: stage === null ? [] : [`funnel:${stage}`],
        });
      }
    };
    try {
      await ask(engine);
    } catch (error) {
      if (!(error instanceof ApiError) || engine === SANDBOX) throw error;
      // A vendor that fails leaves the suggestions the sandbox simulates, labelled as such.
      notices.push(`${error.message} The offline sandbox's simulated suggestions are shown instead.`);
      used = SANDBOX;
      await ask(SANDBOX);
    }
  }

  const facts: BrandSuggestion["facts"] = {};
  if (site.facts.founded_year) facts.founded_year = fromPage(site.facts.founded_year);
  if (site.facts.headquarters) facts.headquarters = fromPage(site.facts.headquarters);
  if (site.facts.starting_price) facts.starting_price = fromPage(site.facts.starting_price);
  if (site.facts.free_plan) facts.free_plan = fromPage(site.facts.free_plan);
  if (site.facts.features) facts.features = site.facts.features.map(fromPage);

  return {
    object: "brand_suggestion",
    website: home,
    engine: used,
    pages,
    name: site.name === null ? null : fromPage(site.name),
    aliases: site.aliases.map(fromPage),
    domains: site.domains.map(fromPage),
    category: site.category === null ? null : fromPage(site.category),
    language: site.language === null ? null : fromPage(site.language),
    country: site.country === null ? null : fromPage(site.country),
    facts,
    competitors,
    prompts,
    notices,
  };
}
