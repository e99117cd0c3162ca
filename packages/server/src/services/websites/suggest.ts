import type { ReadPage } from "./page.ts";

/** Where a suggestion came from: a page and what on it said so. */
interface Source {
  url: string;
  /** What was read: `og:site_name`, `JSON-LD Organization.foundingDate`, `the page's title`… */
  from: string;
}

export interface Suggested<T> {
  value: T;
  source: Source;
}

export interface WebsiteSuggestion {
  name: Suggested<string> | null;
  aliases: Suggested<string>[];
  domains: Suggested<string>[];
  category: Suggested<string> | null;
  language: Suggested<string> | null;
  country: Suggested<string> | null;
  facts: {
    founded_year?: Suggested<number>;
    headquarters?: Suggested<string>;
    starting_price?: Suggested<{ amount: number; currency: string; period?: "month" | "year" | "once" }>;
    free_plan?: Suggested<boolean>;
    features?: Suggested<string>[];
  };
  competitors: Suggested<string>[];
}

const SEPARATORS = /\s+[|·•–—-]\s+|\s*:\s+/;
const GENERIC_TITLE = /^(home|homepage|welcome|official site|index)$/i;

const hostOf = (url: string) => new URL(url).hostname.replace(/^www\./, "").toLowerCase();
const cap = (text: string, length: number) => (text.length <= length ? text : text.slice(0, length).trimEnd());

function types(node: Record<string, unknown>): string[] {
  const type = node["@type"];
  return (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === "string");
}

function organization(page: ReadPage): Record<string, unknown> | null {
  return (
    page.jsonLd.find((node) =>
      types(node).some((t) =>
        ["Organization", "Corporation", "SoftwareApplication", "Brand", "LocalBusiness"].includes(t),
      ),
    ) ?? null
  );
}

function stringOf(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/** The brand's name: the site's own word for itself first, then its title's shortest part that looks like a name. */
function nameOf(pages: ReadPage[], home: ReadPage): Suggested<string> | null {
  for (const page of pages) {
    const org = organization(page);
    const name = stringOf(org?.name);
    if (name !== null)
      return { value: cap(name, 100), source: { url: page.url, from: "its JSON-LD Organization's name" } };
  }
  if (home.siteName !== null)
    return { value: cap(home.siteName, 100), source: { url: home.url, from: "og:site_name" } };
  const host = hostOf(home.url).split(".")[0] ?? "";
  if (home.title !== null) {
    const parts = home.title
      .split(SEPARATORS)
      .map((part) => part.trim())
      .filter((part) => part !== "" && !GENERIC_TITLE.test(part));
    const matching = parts.find(
      (part) => part.toLowerCase().replace(/[^a-z0-9]/g, "") === host.replace(/[^a-z0-9]/g, ""),
    );
    const shortest = [...parts].sort((a, b) => a.length - b.length)[0];
    const chosen = matching ?? shortest;
    if (chosen !== undefined) return { value: cap(chosen, 100), source: { url: home.url, from: "the page's title" } };
  }
  if (host !== "") {
    return { value: host.charAt(0).toUpperCase() + host.slice(1), source: { url: home.url, from: "its address" } };
  }
  return null;
}

const LEGAL_SUFFIX =
  /[,\s]+(inc\.?|incorporated|llc|ltd\.?|limited|gmbh|s\.?a\.?s?|b\.?v\.?|ag|plc|corp\.?|corporation|co\.)$/i;

function aliasesOf(pages: ReadPage[], name: string | null): Suggested<string>[] {
  const found = new Map<string, Suggested<string>>();
  const add = (value: string, source: Source) => {
    const clean = cap(value.trim(), 100);
    if (clean === "" || clean.toLowerCase() === name?.toLowerCase() || found.has(clean.toLowerCase())) return;
    found.set(clean.toLowerCase(), { value: clean, source });
  };
  for (const page of pages) {
    const org = organization(page);
    for (const field of ["alternateName", "legalName"] as const) {
      const value = org?.[field];
      for (const one of Array.isArray(value) ? value : [value]) {
        const text = stringOf(one);
        if (text !== null) add(text, { url: page.url, from: `its JSON-LD Organization's ${field}` });
      }
    }
  }
  // "Acme Inc." for "Acme": the legal name is an alias people use too.
  for (const alias of [...found.values()]) {
    const bare = alias.value.replace(LEGAL_SUFFIX, "");
    if (bare !== alias.value) add(bare, alias.source);
  }
  return [...found.values()].slice(0, 5);
}

const SOCIAL =
  /(^|\.)(facebook|twitter|x|linkedin|instagram|youtube|tiktok|github|medium|crunchbase|wikipedia|g2|capterra|trustpilot|pinterest|reddit)\.[a-z.]+$/;

function domainsOf(pages: ReadPage[], home: ReadPage): Suggested<string>[] {
  const primary = hostOf(home.url);
  const out: Suggested<string>[] = [{ value: primary, source: { url: home.url, from: "the address it answered at" } }];
  for (const page of pages) {
    const sameAs = organization(page)?.sameAs;
    for (const one of Array.isArray(sameAs) ? sameAs : [sameAs]) {
      const url = stringOf(one);
      if (url === null) continue;
      try {
        const host = hostOf(url);
        if (!SOCIAL.test(host) && !out.some((d) => d.value === host)) {
          out.push({ value: host, source: { url: page.url, from: "its JSON-LD Organization's sameAs" } });
        }
      } catch {
        // Not an address.
      }
    }
  }
  return out.slice(0, 5);
}

/** What a product is called by kind: the last word of "help desk software", "CRM platform"… */
const KIND =
  "(?:platform|software|tool|app|service|solution|crm|erp|cms|helpdesk|system|suite|marketplace|agency|company|provider|api|product|store|brand|network)";

/** "Acme is a CRM for small agencies." / "Acme is help desk software for…" → what follows the verb. */
const CATEGORY = new RegExp(
  String.raw`\b(?:is|are|—|-)\s+(?:(?:a|an|the)\s+)?((?:[\w'-]+\s+){0,6}?${KIND}(?:\s+(?:for|to|that helps)\s+[^.,;:!?]{3,50})?)(?=[\s.,;:!?]|$)`,
  "i",
);

/** A phrase that names a kind of product ("Help desk software for small teams"), not a slogan. */
const KIND_PHRASE = new RegExp(String.raw`^(?:[\w'-]+\s+){0,6}?${KIND}(?:\s+(?:for|to)\s+[^.,;:!?]{3,50})?$`, "i");

function categoryOf(pages: ReadPage[], home: ReadPage, name: string | null): Suggested<string> | null {
  const texts = pages.flatMap((page) => [
    ...(page.description === null ? [] : [{ text: page.description, url: page.url, from: "its description" }]),
    ...page.paragraphs.slice(0, 10).map((text) => ({ text, url: page.url, from: "its text" })),
  ]);
  for (const { text, url, from } of texts) {
    const match = CATEGORY.exec(text);
    if (match?.[1] === undefined) continue;
    // What it is, not all it does: "CRM for small agencies (that want their pipeline in one place)".
    const value = match[1]
      .trim()
      .replace(/\s+/g, " ")
      .replace(/\s+(?:that|who|which|where|so|with)\b.*$/i, "");
    if (name !== null && value.toLowerCase().includes(name.toLowerCase())) continue;
    return { value: cap(value, 100), source: { url, from } };
  }
  // The title's other half ("Acme | Help desk software for small teams"), or the first heading,
  // when it names a kind of product; a slogan ("Support your customers, not your tools") is no category.
  const titleParts = (home.title ?? "").split(/\s+[|–—:-]\s+/).map((part) => part.trim());
  const candidates = [
    ...titleParts.map((part) => ({ text: part, from: "its title" })),
    ...home.headings.slice(0, 1).map((text) => ({ text, from: "its first heading" })),
  ];
  for (const { text, from } of candidates) {
    if (name !== null && text.toLowerCase().includes(name.toLowerCase())) continue;
    // "Help desk software…" as a title writes it, "help desk software…" as a sentence does ("CRM" kept).
    const phrase = /^\p{Lu}\p{Ll}/u.test(text) ? `${text.charAt(0).toLowerCase()}${text.slice(1)}` : text;
    if (KIND_PHRASE.test(text)) return { value: cap(phrase, 100), source: { url: home.url, from } };
  }
  return null;
}

const TLD_COUNTRY: Record<string, string> = {
  de: "DE",
  fr: "FR",
  uk: "GB",
  es: "ES",
  it: "IT",
  nl: "NL",
  be: "BE",
  at: "AT",
  ch: "CH",
  se: "SE",
  no: "NO",
  dk: "DK",
  fi: "FI",
  pl: "PL",
  pt: "PT",
  ie: "IE",
  br: "BR",
  mx: "MX",
  ca: "CA",
  au: "AU",
  nz: "NZ",
  jp: "JP",
  in: "IN",
  sg: "SG",
  za: "ZA",
  ar: "AR",
  cl: "CL",
  co: "CO",
};

function languageAndCountry(pages: ReadPage[], home: ReadPage) {
  const lang = home.lang ?? pages.find((page) => page.lang !== null)?.lang ?? null;
  const [primary, region] = (lang ?? "").split(/[-_]/);
  const language =
    primary !== undefined && /^[a-z]{2,3}$/i.test(primary)
      ? { value: primary.toLowerCase(), source: { url: home.url, from: "<html lang>" } }
      : null;
  let country: Suggested<string> | null =
    region !== undefined && /^[a-z]{2}$/i.test(region)
      ? { value: region.toUpperCase(), source: { url: home.url, from: "<html lang>" } }
      : null;
  if (country === null) {
    for (const page of pages) {
      const address = organization(page)?.address as Record<string, unknown> | undefined;
      const code = stringOf(address?.addressCountry);
      if (code !== null && /^[A-Z]{2}$/i.test(code)) {
        country = { value: code.toUpperCase(), source: { url: page.url, from: "its JSON-LD address" } };
        break;
      }
    }
  }
  const tld = hostOf(home.url).split(".").pop() ?? "";
  if (country === null && Object.hasOwn(TLD_COUNTRY, tld)) {
    country = {
      value: TLD_COUNTRY[tld] ?? tld.toUpperCase(),
      source: { url: home.url, from: "its address's country domain" },
    };
  }
  return { language, country };
}

const CURRENCIES: Record<string, string> = { $: "USD", "€": "EUR", "£": "GBP", "¥": "JPY" };
const PRICE =
  /(?:(US\$|\$|€|£|¥)\s?(\d{1,6}(?:[.,]\d{1,2})?)|(\d{1,6}(?:[.,]\d{1,2})?)\s?(€|EUR|USD|GBP))\s*(?:\/|per|a)?\s*(mo(?:nth)?|yr|year|annually|monthly)?/gi;

function factsOf(pages: ReadPage[], product: ReadPage[]): WebsiteSuggestion["facts"] {
  const facts: WebsiteSuggestion["facts"] = {};
  const texts = pages.flatMap((page) =>
    [...page.headings, ...page.paragraphs, ...page.items].map((text) => ({ text, url: page.url })),
  );
  for (const page of pages) {
    const org = organization(page);
    const founded = stringOf(org?.foundingDate);
    const year = founded === null ? null : Number(/\b(1[6-9]\d\d|20\d\d)\b/.exec(founded)?.[1] ?? Number.NaN);
    if (facts.founded_year === undefined && year !== null && Number.isFinite(year)) {
      facts.founded_year = { value: year, source: { url: page.url, from: "its JSON-LD Organization's foundingDate" } };
    }
    const address = org?.address as Record<string, unknown> | undefined;
    const city = stringOf(address?.addressLocality);
    if (facts.headquarters === undefined && city !== null) {
      const region = stringOf(address?.addressRegion) ?? stringOf(address?.addressCountry);
      facts.headquarters = {
        value: cap(region === null ? city : `${city}, ${region}`, 120),
        source: { url: page.url, from: "its JSON-LD address" },
      };
    }
  }
  for (const { text, url } of texts) {
    const founded = /\b(?:founded|established|started|since)\s+(?:in\s+)?(1[6-9]\d\d|20\d\d)\b/i.exec(text);
    if (facts.founded_year === undefined && founded?.[1] !== undefined) {
      facts.founded_year = { value: Number(founded[1]), source: { url, from: `“${cap(text, 80)}”` } };
    }
    const based = /\b(?:headquartered|based|located)\s+in\s+([A-Z][\w'. -]{1,40}(?:,\s*[A-Z][\w'. -]{1,30})?)/.exec(
      text,
    );
    if (facts.headquarters === undefined && based?.[1] !== undefined) {
      facts.headquarters = { value: based[1].trim().replace(/[.]$/, ""), source: { url, from: `“${cap(text, 80)}”` } };
    }
    if (
      facts.free_plan === undefined &&
      /\bfree (?:plan|tier|forever)\b|\bfree for (?:up to|teams|individuals)\b/i.test(text)
    ) {
      facts.free_plan = { value: true, source: { url, from: `“${cap(text, 80)}”` } };
    }
  }
  // The lowest paid price of the pricing pages, with its period.
  let lowest: { amount: number; currency: string; period?: "month" | "year"; url: string; text: string } | null = null;
  for (const page of pages.filter((p) => /pric|plan/i.test(p.url))) {
    for (const text of [...page.headings, ...page.items, ...page.paragraphs]) {
      for (const match of text.matchAll(PRICE)) {
        const symbol = match[1] ?? match[4] ?? "";
        const amount = Number((match[2] ?? match[3] ?? "").replace(",", "."));
        const currency = CURRENCIES[symbol.replace("US", "")] ?? symbol.toUpperCase();
        if (!Number.isFinite(amount) || amount <= 0 || !/^[A-Z]{3}$/.test(currency)) continue;
        const unit = (match[5] ?? "").toLowerCase();
        const period = unit === "" ? undefined : /^(y|a)/.test(unit) ? ("year" as const) : ("month" as const);
        if (lowest === null || amount < lowest.amount) {
          lowest = { amount, currency, ...(period === undefined ? {} : { period }), url: page.url, text };
        }
      }
    }
  }
  if (lowest !== null) {
    facts.starting_price = {
      value: { amount: lowest.amount, currency: lowest.currency, ...(lowest.period ? { period: lowest.period } : {}) },
      source: { url: lowest.url, from: `“${cap(lowest.text, 80)}”` },
    };
  }
  // Features: the product pages' short headings and items (two to six words).
  const features: Suggested<string>[] = [];
  for (const page of product.length > 0 ? product : pages.slice(0, 1)) {
    for (const text of [...page.headings.slice(1), ...page.items]) {
      const words = text.split(" ").length;
      if (
        words < 2 ||
        words > 6 ||
        /[?!$€£]|\d{2,}/.test(text) ||
        features.some((f) => f.value.toLowerCase() === text.toLowerCase())
      )
        continue;
      features.push({ value: cap(text, 80), source: { url: page.url, from: "a heading or list of features" } });
      if (features.length === 8) break;
    }
  }
  if (features.length > 0) facts.features = features;
  return facts;
}

/**
 * A product's name as pages write it: one to three capitalised words ("Zendesk", "Help Scout").
 * Each word is bounded, so that a pattern built from it runs in linear time on any text (an
 * unbounded word made "A-A-A-…" quadratic: seconds of the event loop for 40 KB).
 */
const NAME = String.raw`[A-Z][\w.&'-]{0,40}(?:\s+[A-Z][\w.&'-]{0,40}){0,2}`;
/** A list of names: "Zendesk", "Zendesk and Freshdesk", "Zendesk, Help Scout or Front" (at most eight). */
const NAMES = String.raw`(${NAME}(?:\s*(?:,|\band\b|\bor\b)\s*${NAME}){0,7})`;

/**
 * Names the pages themselves set the brand against: "vs X", "compared to X", "alternative to X",
 * "unlike X", "switch (to us) from X and Y", "X alternatives". Each pattern is tried only on a
 * text holding its cue word (`when`).
 */
const AGAINST: readonly { when: RegExp; pattern: RegExp }[] = [
  { when: /\bvs\b/, pattern: new RegExp(String.raw`\bvs\.?\s+${NAMES}`, "g") },
  {
    when: /\b(?:compared|alternative|instead|unlike|switch|migrat|mov|replac)/i,
    pattern: new RegExp(
      String.raw`\b(?:[Cc]ompared (?:to|with)|[Aa]lternative to|[Ii]nstead of|[Uu]nlike|[Ss]witch(?:es|ing)?(?:\s+to\s+\S{1,60})?\s+from|[Mm]igrat(?:e|es|ing)(?:\s+to\s+\S{1,60})?\s+from|[Mm]ov(?:e|es|ing)(?:\s+to\s+\S{1,60})?\s+from|[Rr]eplac(?:e|es|ing))\s+${NAMES}`,
      "g",
    ),
  },
  { when: /alternatives?\b/, pattern: new RegExp(String.raw`\b(${NAME})\s+alternatives?\b`, "g") },
];

function competitorsOf(pages: ReadPage[], name: string | null, aliases: string[]): Suggested<string>[] {
  const own = new Set([name, ...aliases].filter((n): n is string => n !== null).map((n) => n.toLowerCase()));
  const found = new Map<string, Suggested<string>>();
  for (const page of pages) {
    for (const text of [...page.headings, ...page.paragraphs, ...page.items, ...page.links.map((link) => link.text)]) {
      // In the order the text names them.
      const matches = AGAINST.flatMap(({ when, pattern }) => (when.test(text) ? [...text.matchAll(pattern)] : [])).sort(
        (a, b) => (a.index ?? 0) - (b.index ?? 0),
      );
      for (const match of matches) {
        for (const named of (match[1] ?? "").split(/\s*(?:,|\band\b|\bor\b)\s*/)) {
          const candidate = named.trim().replace(/[.,]$/, "");
          if (
            candidate.length < 2 ||
            own.has(candidate.toLowerCase()) ||
            /^(The|Our|Your|Other|All|Top|Best|Free)$/.test(candidate)
          )
            continue;
          if (!found.has(candidate.toLowerCase())) {
            found.set(candidate.toLowerCase(), {
              value: cap(candidate, 100),
              source: { url: page.url, from: `“${cap(text, 80)}”` },
            });
          }
        }
      }
    }
  }
  return [...found.values()].slice(0, 8);
}

/**
 * What the pages of a brand's website say of it, each with the page and the words it came from:
 * rules over text and metadata, no model. Nothing is stored; the person adding the brand
 * confirms or edits every field.
 */
export function suggestFromPages(pages: ReadPage[]): WebsiteSuggestion {
  const home = pages[0];
  if (home === undefined) throw new Error("suggestFromPages needs the home page");
  const name = nameOf(pages, home);
  const aliases = aliasesOf(pages, name?.value ?? null);
  const product = pages.filter((page) => /product|feature|platform|solution/i.test(new URL(page.url).pathname));
  return {
    name,
    aliases,
    domains: domainsOf(pages, home),
    category: categoryOf(pages, home, name?.value ?? null),
    ...languageAndCountry(pages, home),
    facts: factsOf(pages, product),
    competitors: competitorsOf(
      pages,
      name?.value ?? null,
      aliases.map((a) => a.value),
    ),
  };
}
