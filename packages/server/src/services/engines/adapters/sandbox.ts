import { fold } from "../../measurement/normalize.ts";
import type { BrandSpec, SourceCitation } from "../../measurement/types.ts";
import { cleanSearches } from "../searches.ts";
import { type EngineAdapter, type EngineOutcome, type EngineQuery, type EngineReach, failure } from "../types.ts";
import { usageOf } from "../usage.ts";

/** A small seeded PRNG (mulberry32) over an FNV-1a hash: same inputs, same answer, everywhere. */
function random(seed: string): () => number {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  let state = h >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(rng: () => number, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)] as T;
}

function shuffle<T>(rng: () => number, items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

const PRAISE = [
  "is a strong choice for teams that want to move fast",
  "is widely recommended for its intuitive interface",
  "stands out for reliable support and solid integrations",
  "is popular with growing companies and easy to set up",
  "offers excellent value for the price",
];
const NEUTRAL = [
  "covers the core features most teams need",
  "offers a familiar feature set with several pricing tiers",
  "is a common option in this category",
  "integrates with the usual tools",
];
const CRITICISM = [
  "can get expensive as you scale, and some users report a steep learning curve",
  "is capable but its interface feels dated to some reviewers",
  "has limited customization compared with the alternatives",
  "draws complaints about slow support response times",
];
const REVIEW_SITES = [
  ["g2.com", "G2 reviews"],
  ["capterra.com", "Capterra comparison"],
  ["reddit.com", "Reddit discussion"],
  ["techradar.com", "TechRadar buying guide"],
  ["forbes.com", "Forbes Advisor"],
  ["trustradius.com", "TrustRadius"],
  ["pcmag.com", "PCMag review"],
  ["en.wikipedia.org", "Wikipedia"],
] as const;

function describe(rng: () => number): string {
  const roll = rng();
  return roll < 0.45 ? pick(rng, PRAISE) : roll < 0.8 ? pick(rng, NEUTRAL) : pick(rng, CRITICISM);
}

/**
 * The rest of the simulated market: made-up brands the answers name besides the tracked ones, so
 * that competitor discovery has something to find offline. Built from the brand's name alone
 * (the same brand, the same rivals, in every answer and every process), never one of the tracked
 * names. Two syllables each, capitalised, none an ordinary word.
 */
const RIVAL_HEADS = [
  "Brisk",
  "Clear",
  "Nova",
  "Orbit",
  "Lumen",
  "Pivot",
  "Cobalt",
  "Harbor",
  "Vertex",
  "Maple",
  "Atlas",
  "Quill",
  "Tidal",
  "Ember",
  "Juniper",
  "Kestrel",
] as const;
const RIVAL_TAILS = ["ly", "wise", "stack", "flow", "desk", "loop", "path", "forge", "grid", "nest", "beam", "works"];
const RIVALS = 4;

export function simulatedRivals(brand: string, tracked: readonly string[] = []): string[] {
  const rng = random(`rivals|${fold(brand)}`);
  const taken = new Set([brand, ...tracked].map(fold));
  const out: string[] = [];
  for (let attempt = 0; attempt < 40 && out.length < RIVALS; attempt++) {
    const name = `${pick(rng, RIVAL_HEADS)}${pick(rng, RIVAL_TAILS)}`;
    if (taken.has(fold(name))) continue;
    taken.add(fold(name));
    out.push(name);
  }
  return out;
}

function nameOf(rng: () => number, brand: BrandSpec): string {
  return brand.aliases.length > 0 && rng() < 0.25 ? pick(rng, brand.aliases) : brand.name;
}

/**
 * How the simulated product differs on its web surface: a person in the consumer interface gets a
 * shorter answer that names the brand less often and leans on review sites, so that the API-vs-web
 * comparison has a real divergence to find. The `api` figures are the sandbox's original ones.
 */
const SURFACES = {
  api: { name: "sandbox", model: "sandbox-1", brandRate: 0.7, seed: "" },
  web: { name: "sandbox_web", model: "sandbox-web-1", brandRate: 0.25, seed: "|web" },
} as const;

/**
 * `sandbox` (and `sandbox_web`, its web surface): an offline engine that answers like a real one, deterministically for a given
 * (prompt, sample, seed): numbered and bulleted lists, tables, paragraphs, comparisons and hedged
 * answers, naming the project's brand and its competitors in varying order (the brand is sometimes
 * absent), in a positive, neutral or critical tone, with citations. It needs no key and is on
 * every plan: it makes a fresh install useful and powers tests and demos.
 */
export class SandboxAdapter implements EngineAdapter {
  readonly name: string;
  /**
   * Simulated like an API: a persona and a country change the answers (they seed them), and a
   * conversation is its history sent back, follow-ups narrowing to what was named and leaving out
   * what the asker says they cannot use. Its web surface, like every scraped page, holds no
   * conversation.
   */
  readonly reach: EngineReach;
  readonly #surface: keyof typeof SURFACES;

  constructor(
    private readonly latencyMs = 0,
    surface: keyof typeof SURFACES = "api",
  ) {
    this.name = SURFACES[surface].name;
    this.#surface = surface;
    this.reach =
      surface === "api"
        ? { persona: "system", country: "simulated", conversation: "history" }
        : { persona: "preamble", country: "simulated", conversation: "none" };
  }

  async ask(query: EngineQuery, signal: AbortSignal): Promise<EngineOutcome> {
    if (this.latencyMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.latencyMs);
        signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (signal.aborted) return failure(`${this.name} timed out`, { retryable: true });
    const simulated = answer(query, this.#surface);
    // No vendor, so no usage report: tokens are estimated as a vendor counts them (about four
    // characters each), so that costs can be tried with a price set for the sandbox.
    const usage = usageOf({
      inputTokens: Math.ceil(query.prompt.length / 4),
      outputTokens: Math.ceil(simulated.text.length / 4),
      searchCalls: simulated.searches.length,
    });
    return { ok: true, answer: { ...simulated, usage } };
  }
}

export function answer(
  query: EngineQuery,
  surface: keyof typeof SURFACES = "api",
): {
  text: string;
  model: string;
  citations: SourceCitation[];
  searches: string[];
} {
  const profile = SURFACES[surface];
  // Who asks, from where, and after what: each changes the answer (absent, the answer is as it always was).
  const history = query.history ?? [];
  const context = [
    query.persona ? `|persona:${query.persona}` : "",
    query.country ? `|country:${query.country}` : "",
    ...history.map((turn) => `|turn:${turn.prompt}`),
  ].join("");
  const rng = random(`${query.seed}|${query.prompt}|${query.sample}${profile.seed}${context}`);
  const market = query.simulation;
  const brands: BrandSpec[] = [];
  if (market !== undefined) {
    const ruledOut = excluded([query.persona ?? "", query.prompt, ...history.map((turn) => turn.prompt)], market);
    const previous = history.at(-1)?.answer;
    const narrowing = previous !== undefined && /\b(those|these|them|of the|which one|between)\b/i.test(query.prompt);
    const candidates = [market.brand, ...market.competitors].filter((b) => !ruledOut.has(b.name));
    if (narrowing) {
      // "Which of those…": only what the last answer named, each kept two times in three.
      for (const b of candidates) if (namedIn(previous, b) && rng() < 0.67) brands.push(b);
    } else {
      if (candidates.includes(market.brand) && rng() < profile.brandRate) brands.push(market.brand);
      for (const competitor of market.competitors)
        if (candidates.includes(competitor) && rng() < 0.6) brands.push(competitor);
    }
  }
  const named = shuffle(rng, brands).slice(0, 7);
  // The untracked rivals come from a stream of their own, after every tracked brand: what an
  // answer says of the tracked brands (which, where, in what tone) is what it said before them.
  const own = random(`${query.seed}|${query.prompt}|${query.sample}${profile.seed}|rivals`);
  const others =
    market === undefined
      ? []
      : simulatedRivals(
          market.brand.name,
          [market.brand, ...market.competitors].flatMap((b) => [b.name, ...b.aliases]),
        ).filter(() => own() < 0.45);
  const topic = query.prompt.replace(/[?.!]+$/, "");
  const style = pick(rng, ["numbered", "numbered", "bullets", "table", "paragraphs", "comparison", "hedged"] as const);
  const lines: string[] = [];

  if (named.length === 0) {
    lines.push(
      `There is no single answer to "${topic}": it depends on your budget, team size and the tools you already use.`,
      "",
      "Start by listing your must-have features, shortlist three vendors, and run a two-week trial with real data before committing.",
    );
  } else if (style === "numbered" || style === "bullets") {
    lines.push(`Here are options worth considering for "${topic}":`, "");
    named.forEach((brand, i) => {
      const marker = style === "numbered" ? `${i + 1}.` : "-";
      lines.push(`${marker} **${nameOf(rng, brand)}** ${describe(rng)}.`);
    });
    others.forEach((name, i) => {
      const marker = style === "numbered" ? `${named.length + i + 1}.` : "-";
      lines.push(`${marker} **${name}** ${describe(own)}.`);
    });
    lines.push("", "The best fit depends on your budget and how much setup time you can invest.");
  } else if (style === "table") {
    lines.push(`A quick comparison for "${topic}":`, "", "| Option | Strengths | Watch out for |", "|---|---|---|");
    for (const brand of named) lines.push(`| ${nameOf(rng, brand)} | ${pick(rng, PRAISE)} | ${pick(rng, CRITICISM)} |`);
    for (const name of others) lines.push(`| ${name} | ${pick(own, PRAISE)} | ${pick(own, CRITICISM)} |`);
  } else if (style === "comparison" && named.length >= 2) {
    const [a, b] = named as [BrandSpec, BrandSpec];
    lines.push(
      `${nameOf(rng, a)} vs ${nameOf(rng, b)} is the comparison most people make for "${topic}".`,
      "",
      `${nameOf(rng, a)} ${describe(rng)}, while ${nameOf(rng, b)} ${describe(rng)}.`,
    );
    for (const brand of named.slice(2))
      lines.push("", `${nameOf(rng, brand)} is also worth a look: it ${describe(rng)}.`);
  } else if (style === "hedged") {
    lines.push(
      `I can't point to one definitive answer for "${topic}", but a few names come up often.`,
      "",
      `${named.map((brand) => nameOf(rng, brand)).join(", ")} are frequently mentioned; ${nameOf(rng, named[0] as BrandSpec)} ${describe(rng)}.`,
      "",
      "Check recent reviews before deciding, since pricing and features change often.",
    );
  } else {
    lines.push(`For "${topic}", several tools are worth a look.`);
    for (const brand of named) lines.push("", `${nameOf(rng, brand)} ${describe(rng)}.`);
  }

  const inline = named.length > 0 && (style === "numbered" || style === "bullets" || style === "table");
  if (others.length > 0 && !inline) {
    const bold = others.map((name) => `**${name}**`).join(", ");
    lines.push("", others.length === 1 ? `Another name that comes up: ${bold}.` : `Other names that come up: ${bold}.`);
  }

  const citations: SourceCitation[] = [];
  const cited = new Set<string>();
  const cite = (domain: string, title: string, path: string) => {
    if (cited.has(domain)) return;
    cited.add(domain);
    citations.push({ url: `https://${domain}/${path}`, title });
  };
  for (const brand of named) {
    const domain = brand.domains[0];
    if (domain !== undefined && rng() < 0.35) cite(domain, `${brand.name}: official site`, "pricing");
  }
  const reviewCount = 1 + Math.floor(rng() * 3);
  for (const [domain, title] of shuffle(rng, [...REVIEW_SITES]).slice(0, reviewCount)) {
    cite(
      domain,
      title,
      topic
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .slice(0, 60),
    );
  }
  if (citations.length > 0 && rng() < 0.3) {
    const first = citations[0] as SourceCitation;
    lines.push("", `Sources: [${first.title ?? first.url}](${first.url})`);
  }
  return { text: lines.join("\n"), model: profile.model, citations, searches: searchesFor(topic, named) };
}

/** Whether an answer names a brand (by its name or an alias, as a word). */
function namedIn(text: string, brand: BrandSpec): boolean {
  const folded = fold(text);
  return [brand.name, ...brand.aliases].some((name) => {
    const needle = fold(name);
    return (
      needle !== "" &&
      new RegExp(`(^|[^\\p{L}\\p{N}])${needle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\p{L}\\p{N}])`, "u").test(
        folded,
      )
    );
  });
}

/** What rules a brand out in what the asker said: "can't use X", "not X", "without X", "other than X"… */
const RULING_OUT = /\b(?:can(?:no|')t|won'?t|don'?t|do not|not|without|except|other than|besides|instead of|no)\b/i;

/**
 * The brands the asker has ruled out: named in a clause (up to the next full stop, semicolon or
 * question mark) that follows a word of refusal, in the persona or any question so far.
 */
function excluded(said: readonly string[], market: { brand: BrandSpec; competitors: BrandSpec[] }): Set<string> {
  const out = new Set<string>();
  for (const text of said) {
    for (const clause of text.split(/[.;?!\n]+/)) {
      const match = RULING_OUT.exec(clause);
      if (match === null) continue;
      const rest = clause.slice(match.index);
      for (const b of [market.brand, ...market.competitors]) if (namedIn(rest, b)) out.add(b.name);
    }
  }
  return out;
}

/**
 * The searches a real engine would run for the prompt: the prompt itself, its reviews and, when
 * the answer compares brands, the first two by name. Drawn from no randomness, so that adding them
 * left every earlier answer as it was.
 */
function searchesFor(topic: string, named: BrandSpec[]): string[] {
  const [a, b] = named;
  return cleanSearches([
    topic.toLowerCase(),
    `${topic.toLowerCase()} reviews`,
    a !== undefined && b !== undefined ? `${a.name} vs ${b.name}` : null,
  ]);
}
