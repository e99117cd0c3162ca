import { hostIsOnDomain, normalizeDomain } from "../../lib/domains.ts";
import { type CategoryOverride, type CitationCategory, categorizeDomain } from "./citation-category.ts";
import type { BrandSpec, CitationFound, SourceCitation } from "./types.ts";

const MARKDOWN_LINK = /\[([^\]]{0,300})\]\((https?:\/\/[^\s)]+)\)/g;
const BARE_URL = /https?:\/\/[^\s)>\]"'`]+/g;

/** Links written in the answer's text: markdown links first (they have a title), then bare URLs. */
export function linksInText(text: string): SourceCitation[] {
  const found = new Map<string, SourceCitation>();
  for (const match of text.matchAll(MARKDOWN_LINK)) {
    const url = (match[2] ?? "").replace(/[.,;:]+$/, "");
    if (!found.has(url)) found.set(url, { url, title: match[1]?.trim() || null });
  }
  for (const match of text.matchAll(BARE_URL)) {
    const url = match[0].replace(/[.,;:]+$/, "");
    if (!found.has(url)) found.set(url, { url, title: null });
  }
  return [...found.values()];
}

/**
 * The domain a citation stands for. Engines that cite through a redirect (Gemini's grounding
 * redirects) name the source's domain in the title; that domain is the one that counts.
 */
function citationDomain(url: string, title: string | null): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
  if (host.endsWith("vertexaisearch.cloud.google.com") && title !== null) {
    const fromTitle = normalizeDomain(title);
    if (fromTitle !== null) return fromTitle;
  }
  return host.replace(/^www\./, "");
}

export function classifyCitations(
  sources: SourceCitation[],
  brand: BrandSpec,
  competitors: BrandSpec[],
  overrides: readonly CategoryOverride[] = [],
): CitationFound[] {
  const context = {
    brandDomains: brand.domains,
    competitorDomains: competitors.flatMap((c) => c.domains),
    overrides,
  };
  const seen = new Set<string>();
  const out: CitationFound[] = [];
  for (const source of sources) {
    if (seen.has(source.url)) continue;
    seen.add(source.url);
    const domain = citationDomain(source.url, source.title);
    if (domain === null) continue;
    const competitor = competitors.find((c) => c.domains.some((d) => hostIsOnDomain(domain, d)));
    out.push({
      url: source.url,
      domain,
      title: source.title,
      brand: brand.domains.some((d) => hostIsOnDomain(domain, d)),
      competitor: competitor?.name ?? null,
      category: categorizeDomain(domain, context),
    });
  }
  return out;
}

/**
 * A stored citation's category. Results measured before categories existed have none: derive it from
 * what they do have (brand, competitor) and the built-in list.
 */
export function citationCategory(citation: CitationFound): CitationCategory {
  if (citation.category !== undefined) return citation.category;
  if (citation.brand) return "owned";
  if (citation.competitor !== null) return "competitor";
  return categorizeDomain(citation.domain, { brandDomains: [], competitorDomains: [] });
}
