import { hostIsOnDomain } from "../../lib/domains.ts";

/**
 * Citation categories: what kind of source an engine cites.
 *
 * Order of precedence, first match wins:
 *   1. `owned`: on one of the brand's domains;
 *   2. `competitor`: on one of a tracked competitor's domains;
 *   3. the project's overrides (`citation_categories`), most specific domain first;
 *   4. the built-in list below, most specific domain first;
 *   5. `other`.
 * A domain matches itself and its subdomains (`en.wikipedia.org` is on `wikipedia.org`). Entries ending
 * in `.*` match the name under any public suffix (`amazon.*` matches `amazon.de` and `amazon.co.uk`).
 *
 * Bump CATEGORY_VERSION whenever the list or the rules change, so stored categories can be told apart
 * from ones the current classifier would give.
 */
export const CATEGORY_VERSION = "1";

export const CITATION_CATEGORIES = ["owned", "competitor", "social", "reference", "news", "review", "other"] as const;
export type CitationCategory = (typeof CITATION_CATEGORIES)[number];

/** The categories a project may assign to a domain: owned and competitor come from its brands. */
export const OVERRIDABLE_CATEGORIES = ["social", "reference", "news", "review", "other"] as const;
type OverridableCategory = (typeof OVERRIDABLE_CATEGORIES)[number];

export interface CategoryOverride {
  domain: string;
  category: OverridableCategory;
}

export interface CategoryContext {
  brandDomains: readonly string[];
  competitorDomains: readonly string[];
  overrides?: readonly CategoryOverride[];
}

const BUILT_IN: Record<Exclude<CitationCategory, "owned" | "competitor" | "other">, readonly string[]> = {
  social: [
    "reddit.com",
    "redd.it",
    "quora.com",
    "youtube.com",
    "youtu.be",
    "x.com",
    "twitter.com",
    "facebook.com",
    "instagram.com",
    "tiktok.com",
    "linkedin.com",
    "medium.com",
    "substack.com",
    "stackoverflow.com",
    "stackexchange.com",
    "superuser.com",
    "serverfault.com",
    "askubuntu.com",
    "news.ycombinator.com",
    "dev.to",
    "hashnode.com",
    "pinterest.com",
    "threads.net",
    "bsky.app",
    "mastodon.social",
    "discord.com",
    "tumblr.com",
    "vimeo.com",
    "twitch.tv",
    "github.com",
  ],
  reference: [
    "wikipedia.org",
    "wikimedia.org",
    "wikidata.org",
    "wiktionary.org",
    "britannica.com",
    "merriam-webster.com",
    "dictionary.com",
    "cambridge.org",
    "investopedia.com",
    "developer.mozilla.org",
    "w3.org",
    "ietf.org",
    "iso.org",
    "nist.gov",
    "nih.gov",
    "cdc.gov",
    "who.int",
    "europa.eu",
    "gov.uk",
    "usa.gov",
    "arxiv.org",
    "scholar.google.com",
    "pubmed.ncbi.nlm.nih.gov",
    "nature.com",
    "sciencedirect.com",
    "springer.com",
    "jstor.org",
    "archive.org",
  ],
  news: [
    "nytimes.com",
    "bbc.com",
    "bbc.co.uk",
    "reuters.com",
    "apnews.com",
    "theverge.com",
    "techcrunch.com",
    "forbes.com",
    "cnbc.com",
    "cnn.com",
    "bloomberg.com",
    "wsj.com",
    "ft.com",
    "economist.com",
    "theguardian.com",
    "washingtonpost.com",
    "businessinsider.com",
    "wired.com",
    "arstechnica.com",
    "engadget.com",
    "zdnet.com",
    "techradar.com",
    "pcmag.com",
    "tomsguide.com",
    "cnet.com",
    "venturebeat.com",
    "axios.com",
    "fortune.com",
    "time.com",
    "npr.org",
    "lemonde.fr",
    "lefigaro.fr",
    "spiegel.de",
    "faz.net",
    "zeit.de",
    "elpais.com",
    "elmundo.es",
    "corriere.it",
    "nikkei.com",
    "asahi.com",
    "scmp.com",
  ],
  review: [
    "g2.com",
    "capterra.com",
    "trustradius.com",
    "trustpilot.com",
    "getapp.com",
    "softwareadvice.com",
    "producthunt.com",
    "gartner.com",
    "yelp.com",
    "glassdoor.com",
    "consumerreports.org",
    "wirecutter.com",
    "apps.apple.com",
    "play.google.com",
    "chromewebstore.google.com",
    "ebay.com",
    "etsy.com",
    "walmart.com",
    "bestbuy.com",
    "amazon.*",
    "tripadvisor.*",
    "booking.com",
  ],
};

interface Rule {
  domain: string;
  /** `amazon.*`: the name under any public suffix. */
  anySuffix: boolean;
  category: CitationCategory;
}

const SUFFIX_LABEL = /^[a-z]{2,3}$/;

function ruleMatches(host: string, rule: Rule): boolean {
  if (!rule.anySuffix) return hostIsOnDomain(host, rule.domain);
  // `amazon.*`: the name, then one or two short labels (`de`, `co.uk`, `com.au`) and nothing else.
  const labels = host.replace(/^www\./, "").split(".");
  const at = labels.lastIndexOf(rule.domain);
  if (at < 0) return false;
  const suffix = labels.slice(at + 1);
  return suffix.length >= 1 && suffix.length <= 2 && suffix.every((l) => SUFFIX_LABEL.test(l));
}

/** Longest domain first, so `apps.apple.com` wins over a shorter entry for the same host. */
function bySpecificity(a: Rule, b: Rule): number {
  return b.domain.split(".").length - a.domain.split(".").length;
}

const BUILT_IN_RULES: readonly Rule[] = Object.entries(BUILT_IN)
  .flatMap(([category, domains]) =>
    domains.map((d) => ({
      domain: d.endsWith(".*") ? d.slice(0, -2) : d,
      anySuffix: d.endsWith(".*"),
      category: category as CitationCategory,
    })),
  )
  .sort(bySpecificity);

function firstMatch(host: string, rules: readonly Rule[]): CitationCategory | null {
  for (const rule of rules) if (ruleMatches(host, rule)) return rule.category;
  return null;
}

/** The category of a cited host (a domain as `classifyCitations` gives it, or any host name). */
export function categorizeDomain(host: string, context: CategoryContext): CitationCategory {
  const h = host.trim().toLowerCase().replace(/\.$/, "");
  if (h.length === 0) return "other";
  if (context.brandDomains.some((d) => hostIsOnDomain(h, d))) return "owned";
  if (context.competitorDomains.some((d) => hostIsOnDomain(h, d))) return "competitor";
  if (context.overrides !== undefined && context.overrides.length > 0) {
    const rules = context.overrides
      .map((o) => ({ domain: o.domain.toLowerCase(), anySuffix: false, category: o.category }))
      .sort(bySpecificity);
    const overridden = firstMatch(h, rules);
    if (overridden !== null) return overridden;
  }
  return firstMatch(h, BUILT_IN_RULES) ?? "other";
}
