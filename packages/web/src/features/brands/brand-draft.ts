import type { CitationCategoryOverride, EngineName, Project, ProjectCreate, ProjectUpdate } from "@sightline/sdk";
import { ApiError, errorMessage } from "../../lib/api.ts";

/** The brand form's state: lists as the text a person types, turned into the API's body on save. */

export interface CompetitorDraft {
  /** Stable React key of the row (rows are added and removed). */
  key: string;
  name: string;
  domains: string;
  aliases: string;
  caseSensitiveAliases: string;
}

export interface BrandDraft {
  name: string;
  primaryDomain: string;
  /** What the brand sells, as a buyer would say it (prompt suggestions start from it). */
  category: string;
  otherDomains: string;
  aliases: string;
  caseSensitiveAliases: string;
  /** Phrases in which a tracked name does not count, one per line. */
  exclusions: string;
  /** The brand's own categories for cited domains, one `domain: category` per line. */
  citationCategories: string;
  competitors: CompetitorDraft[];
  prompts: string;
  engines: string[];
  country: string;
  language: string;
  facts: FactsDraft;
}

type FactSheet = NonNullable<Project["facts"]>;

/** The fact sheet as typed: every field optional, empty meaning "not stated". */
export interface FactsDraft {
  foundedYear: string;
  headquarters: string;
  priceAmount: string;
  priceCurrency: string;
  pricePeriod: "" | "month" | "year" | "once";
  freePlan: "" | "yes" | "no";
  /** One per line. */
  features: string;
}

const EMPTY_FACTS: FactsDraft = {
  foundedYear: "",
  headquarters: "",
  priceAmount: "",
  priceCurrency: "USD",
  pricePeriod: "month",
  freePlan: "",
  features: "",
};

function factsDraftOf(facts: FactSheet | undefined): FactsDraft {
  if (facts === undefined) return { ...EMPTY_FACTS };
  return {
    foundedYear: facts.founded_year === undefined ? "" : String(facts.founded_year),
    headquarters: facts.headquarters ?? "",
    priceAmount: facts.starting_price === undefined ? "" : String(facts.starting_price.amount),
    priceCurrency: facts.starting_price?.currency ?? "USD",
    pricePeriod: facts.starting_price === undefined ? "month" : (facts.starting_price.period ?? ""),
    freePlan: facts.free_plan === undefined ? "" : facts.free_plan ? "yes" : "no",
    features: (facts.features ?? []).join("\n"),
  };
}

/** The fact sheet the API takes: only what is filled in (checkDraft has checked the numbers). */
function factsOf(draft: FactsDraft): FactSheet {
  const facts: FactSheet = {};
  if (draft.foundedYear.trim() !== "") facts.founded_year = Number(draft.foundedYear.trim());
  if (draft.headquarters.trim() !== "") facts.headquarters = draft.headquarters.trim();
  if (draft.priceAmount.trim() !== "") {
    facts.starting_price = {
      amount: Number(draft.priceAmount.trim().replace(",", ".")),
      currency: draft.priceCurrency.trim().toUpperCase(),
      ...(draft.pricePeriod === "" ? {} : { period: draft.pricePeriod }),
    };
  }
  if (draft.freePlan !== "") facts.free_plan = draft.freePlan === "yes";
  const features = splitLines(draft.features);
  if (features.length > 0) facts.features = features;
  return facts;
}

let nextKey = 0;
export function newCompetitor(values: Partial<Omit<CompetitorDraft, "key">> = {}): CompetitorDraft {
  nextKey += 1;
  return { key: `competitor-${nextKey}`, name: "", domains: "", aliases: "", caseSensitiveAliases: "", ...values };
}

export function emptyDraft(engines: readonly string[]): BrandDraft {
  return {
    name: "",
    primaryDomain: "",
    category: "",
    otherDomains: "",
    aliases: "",
    caseSensitiveAliases: "",
    exclusions: "",
    citationCategories: "",
    competitors: [newCompetitor()],
    prompts: "",
    // The offline sandbox answers at once and costs nothing outside; vendors need keys on the server.
    engines: engines.includes("sandbox") ? ["sandbox"] : engines.slice(0, 1),
    country: "",
    language: "",
    facts: { ...EMPTY_FACTS },
  };
}

export function draftOf(project: Project): BrandDraft {
  return {
    name: project.name,
    primaryDomain: project.primary_domain,
    category: project.category ?? "",
    otherDomains: project.other_domains.join(", "),
    aliases: project.aliases.join(", "),
    caseSensitiveAliases: (project.case_sensitive_aliases ?? []).join(", "),
    exclusions: (project.exclusions ?? []).join("\n"),
    citationCategories: (project.citation_categories ?? []).map((c) => `${c.domain}: ${c.category}`).join("\n"),
    competitors: project.competitors.map((competitor) =>
      newCompetitor({
        name: competitor.name,
        domains: competitor.domains.join(", "),
        aliases: competitor.aliases.join(", "),
        caseSensitiveAliases: (competitor.case_sensitive_aliases ?? []).join(", "),
      }),
    ),
    prompts: project.prompts.join("\n"),
    engines: [...project.engines],
    country: project.country ?? "",
    language: project.language ?? "",
    facts: factsDraftOf(project.facts),
  };
}

/** "a.com, b.com" or one per line → ["a.com", "b.com"]. */
export function splitList(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/** One prompt per line; blank lines dropped, and the same prompt twice kept once. */
export function splitPrompts(text: string): string[] {
  const seen = new Set<string>();
  const prompts: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const prompt = line.trim();
    if (prompt !== "" && !seen.has(prompt)) {
      seen.add(prompt);
      prompts.push(prompt);
    }
  }
  return prompts;
}

/** A competitor row with anything typed in it is sent; an untouched one is dropped. */
function isFilled(row: CompetitorDraft): boolean {
  return [row.name, row.domains, row.aliases, row.caseSensitiveAliases].some((text) => text.trim() !== "");
}

/** One phrase per line; blank lines dropped. */
function splitLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

const CATEGORIES = ["social", "reference", "news", "review", "other"] as const;

/** "g2.com: review" → {domain, category}; null when the line is not written that way. */
function parseCategoryLine(line: string): CitationCategoryOverride | null {
  const match = /^(.+?)\s*[:=]\s*([a-z]+)$/i.exec(line.trim());
  const category = match?.[2]?.toLowerCase();
  const domain = match?.[1]?.trim();
  if (!domain || !CATEGORIES.includes(category as (typeof CATEGORIES)[number])) return null;
  return { domain, category: category as CitationCategoryOverride["category"] };
}

function categoriesOf(text: string): CitationCategoryOverride[] {
  return splitLines(text)
    .map(parseCategoryLine)
    .filter((c): c is CitationCategoryOverride => c !== null);
}

export function bodyOf(draft: BrandDraft): ProjectCreate {
  return {
    name: draft.name.trim(),
    primary_domain: draft.primaryDomain.trim(),
    category: draft.category.trim() === "" ? null : draft.category.trim(),
    other_domains: splitList(draft.otherDomains),
    aliases: splitList(draft.aliases),
    case_sensitive_aliases: splitList(draft.caseSensitiveAliases),
    exclusions: splitLines(draft.exclusions),
    citation_categories: categoriesOf(draft.citationCategories),
    competitors: draft.competitors.filter(isFilled).map((row) => ({
      name: row.name.trim(),
      domains: splitList(row.domains),
      aliases: splitList(row.aliases),
      case_sensitive_aliases: splitList(row.caseSensitiveAliases),
    })),
    prompts: splitPrompts(draft.prompts),
    engines: draft.engines as EngineName[],
    country: draft.country.trim() === "" ? null : draft.country.trim().toUpperCase(),
    language: draft.language.trim() === "" ? null : draft.language.trim(),
    facts: factsOf(draft.facts),
  };
}

/** Only what changed, so that the brand's history (project.updated) names exactly that. */
export function changesOf(project: Project, draft: BrandDraft): ProjectUpdate {
  const body = bodyOf(draft);
  const before: Record<string, unknown> = {
    name: project.name,
    primary_domain: project.primary_domain,
    category: project.category ?? null,
    other_domains: project.other_domains,
    aliases: project.aliases,
    case_sensitive_aliases: project.case_sensitive_aliases ?? [],
    exclusions: project.exclusions ?? [],
    citation_categories: project.citation_categories ?? [],
    competitors: project.competitors.map((competitor) => ({
      name: competitor.name,
      domains: competitor.domains,
      aliases: competitor.aliases,
      case_sensitive_aliases: competitor.case_sensitive_aliases ?? [],
    })),
    prompts: project.prompts,
    engines: project.engines,
    country: project.country,
    language: project.language,
    facts: project.facts ?? {},
  };
  const changes: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body)) {
    if (JSON.stringify(value) !== JSON.stringify(before[field])) changes[field] = value;
  }
  return changes as ProjectUpdate;
}

/** Checks what the browser can check; the server checks the rest and its answer lands on the same fields. */
export function checkDraft(draft: BrandDraft): Record<string, string> {
  const errors: Record<string, string> = {};
  if (draft.name.trim() === "") errors.name = "Enter the brand's name.";
  if (draft.primaryDomain.trim() === "") errors.primary_domain = "Enter the brand's website, e.g. acme.com.";
  if (draft.engines.length === 0) errors.engines = "Choose at least one engine.";
  draft.competitors.forEach((row, index) => {
    if (row.name.trim() === "" && isFilled(row)) {
      errors[`competitors.${index}.name`] = "Enter the competitor's name, or remove the row.";
    }
  });
  const badLine = splitLines(draft.citationCategories).findIndex((line) => parseCategoryLine(line) === null);
  if (badLine >= 0) {
    errors.citation_categories = `Line ${badLine + 1}: write it as domain: category, the category one of ${CATEGORIES.join(", ")}.`;
  }
  const year = draft.facts.foundedYear.trim();
  if (year !== "" && !(/^\d{4}$/.test(year) && Number(year) >= 1600 && Number(year) <= 2100)) {
    errors["facts.founded_year"] = "Enter the year as four digits, e.g. 2015.";
  }
  const amount = draft.facts.priceAmount.trim().replace(",", ".");
  if (amount !== "" && !(/^\d+(\.\d{1,2})?$/.test(amount) && Number(amount) <= 10_000_000)) {
    errors["facts.starting_price"] = "Enter the price as a number, e.g. 29 or 19.99.";
  } else if (amount !== "" && !/^[A-Za-z]{3}$/.test(draft.facts.priceCurrency.trim())) {
    errors["facts.starting_price"] = "Use a three-letter currency code, e.g. USD, EUR or GBP.";
  }
  const country = draft.country.trim();
  if (country !== "" && !/^[A-Za-z]{2}$/.test(country)) {
    errors.country = "Use the two-letter code, e.g. US, GB or DE.";
  }
  const language = draft.language.trim();
  if (language !== "") {
    try {
      Intl.getCanonicalLocales(language);
    } catch {
      errors.language = "Use a language tag such as en, fr or pt-BR.";
    }
  }
  return errors;
}

/** `competitors[0].domains[1]` → ["competitors", 0, "domains", 1]. */
export function parsePath(field: string): (string | number)[] {
  const parts: (string | number)[] = [];
  for (const match of field.replace(/^(body\.|\/)/, "").matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (match[2] !== undefined) parts.push(Number(match[2]));
    else if (match[1] !== undefined) parts.push(/^\d+$/.test(match[1]) ? Number(match[1]) : match[1]);
  }
  return parts;
}

/**
 * The server's field issues placed on the form's fields: `other_domains[1]` goes to "Other domains" and
 * names the item; `competitors[0].domains[1]` to the first competitor's domains; `prompts[4]` to line 5.
 */
export function serverErrors(error: unknown, draft: BrandDraft): { fields: Record<string, string>; message?: string } {
  if (!(error instanceof ApiError) || error.details.length === 0) return { fields: {}, message: errorMessage(error) };
  const body = bodyOf(draft);
  const fields: Record<string, string> = {};
  const unplaced: string[] = [];
  const put = (name: string, issue: string) => {
    fields[name] = fields[name] ? `${fields[name]} ${issue}` : issue;
  };
  for (const { field, issue } of error.details) {
    if (!field) {
      unplaced.push(issue);
      continue;
    }
    const [top, index, sub, subIndex] = parsePath(field);
    if (
      top === "name" ||
      top === "primary_domain" ||
      top === "category" ||
      top === "engines" ||
      top === "country" ||
      top === "language"
    ) {
      put(top, typeof index === "number" && top === "engines" ? `${body.engines?.[index] ?? ""}: ${issue}` : issue);
    } else if (top === "other_domains" || top === "aliases" || top === "case_sensitive_aliases") {
      const list =
        top === "aliases" ? body.aliases : top === "other_domains" ? body.other_domains : body.case_sensitive_aliases;
      const item = typeof index === "number" ? list?.[index] : undefined;
      put(top, item !== undefined ? `“${item}” ${issue}` : issue);
    } else if (top === "citation_categories") {
      put("citation_categories", typeof index === "number" ? `Line ${index + 1}: ${issue}` : issue);
    } else if (top === "exclusions") {
      const item = typeof index === "number" ? body.exclusions?.[index] : undefined;
      put("exclusions", item !== undefined ? `“${item}” ${issue}` : issue);
    } else if (top === "prompts") {
      put("prompts", typeof index === "number" ? `Prompt ${index + 1}: ${issue}` : issue);
    } else if (top === "competitors" && typeof index === "number") {
      const row = body.competitors?.[index];
      // Rows left empty are not sent: find the form row that became this competitor.
      const filled = draft.competitors.filter(isFilled);
      const formIndex = draft.competitors.indexOf(filled[index] ?? (draft.competitors[index] as CompetitorDraft));
      const at = formIndex >= 0 ? formIndex : index;
      if (sub === "domains" || sub === "aliases" || sub === "case_sensitive_aliases") {
        const item = typeof subIndex === "number" ? row?.[sub]?.[subIndex] : undefined;
        put(`competitors.${at}.${sub}`, item !== undefined ? `“${item}” ${issue}` : issue);
      } else if (sub === "name") {
        put(`competitors.${at}.name`, issue);
      } else {
        put("competitors", issue);
      }
    } else if (top === "competitors") {
      put("competitors", issue);
    } else if (top === "facts") {
      const key = index === "starting_price" || index === "founded_year" ? `facts.${index}` : "facts";
      put(key, issue);
    } else {
      unplaced.push(`${field}: ${issue}`);
    }
  }
  if (Object.keys(fields).length === 0) return { fields, message: errorMessage(error) };
  return unplaced.length > 0 ? { fields, message: unplaced.join(" ") } : { fields };
}
