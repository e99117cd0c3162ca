import { type ErrorDetail, validationError } from "../../errors/api-error.ts";
import { normalizeDomain } from "../../lib/domains.ts";
import { checkCountry, checkLanguage } from "../../lib/locale.ts";
import type { CategoryOverride } from "../measurement/citation-category.ts";
import { cleanText, fold } from "./normalize-text.ts";
import { organisePrompts } from "./prompt-tags.ts";
import type { Competitor, FactSheet, ProjectInput, ProjectSettings } from "./types.ts";

/**
 * Turns a complete set of settings into their stored form, or throws one VALIDATION_ERROR
 * naming every problem. Duplicates are dropped rather than refused (first spelling wins);
 * contradictions (a competitor named like the brand) are refused.
 */
export function normalizeSettings(input: Required<ProjectInput>, knownEngines: readonly string[]): ProjectSettings {
  const details: ErrorDetail[] = [];
  const problem = (field: string, issue: string) => details.push({ field, issue });

  const name = input.name.trim();
  if (name.length === 0) problem("name", "must not be empty");

  const primary = normalizeDomain(input.primary_domain);
  if (primary === null) problem("primary_domain", "must be a domain name such as example.com");

  const domains = (values: string[], field: string, exclude: Set<string>): string[] => {
    const out: string[] = [];
    for (const [index, value] of values.entries()) {
      const domain = normalizeDomain(value);
      if (domain === null) problem(`${field}[${index}]`, "must be a domain name such as example.com");
      else if (!exclude.has(domain) && !out.includes(domain)) out.push(domain);
    }
    return out;
  };
  const otherDomains = domains(input.other_domains, "other_domains", new Set(primary === null ? [] : [primary]));

  const texts = (values: string[], field: string, exclude: Set<string>): string[] => {
    const out: string[] = [];
    const seen = new Set(exclude);
    for (const [index, value] of values.entries()) {
      const text = cleanText(value);
      if (text.length === 0) problem(`${field}[${index}]`, "must not be empty");
      else if (!seen.has(fold(text))) {
        seen.add(fold(text));
        out.push(text);
      }
    }
    return out;
  };
  /** Names matched with their exact case: duplicates are exact ones ("SAP" and "Sap" are two names). */
  const exactTexts = (values: string[], field: string, exclude: Set<string>): string[] => {
    const out: string[] = [];
    for (const [index, value] of values.entries()) {
      const text = cleanText(value);
      if (text.length === 0) problem(`${field}[${index}]`, "must not be empty");
      else if (!exclude.has(text) && !out.includes(text)) out.push(text);
    }
    return out;
  };
  const aliases = texts(input.aliases, "aliases", new Set([fold(name)]));
  const caseSensitiveAliases = exactTexts(input.case_sensitive_aliases, "case_sensitive_aliases", new Set([name]));
  const brandNames = new Set([fold(name), ...aliases.map(fold), ...caseSensitiveAliases.map(fold)]);

  const competitors: Competitor[] = [];
  const competitorNames = new Set<string>();
  for (const [index, competitor] of input.competitors.entries()) {
    const field = `competitors[${index}]`;
    const competitorName = competitor.name.trim();
    if (competitorName.length === 0) {
      problem(`${field}.name`, "must not be empty");
      continue;
    }
    if (brandNames.has(fold(competitorName))) {
      problem(`${field}.name`, "is the brand's own name or alias");
      continue;
    }
    if (competitorNames.has(fold(competitorName))) {
      problem(`${field}.name`, "names a competitor listed earlier");
      continue;
    }
    competitorNames.add(fold(competitorName));
    competitors.push({
      name: competitorName,
      domains: domains(competitor.domains ?? [], `${field}.domains`, new Set()),
      aliases: texts(competitor.aliases ?? [], `${field}.aliases`, new Set([fold(competitorName)])),
      case_sensitive_aliases: exactTexts(
        competitor.case_sensitive_aliases ?? [],
        `${field}.case_sensitive_aliases`,
        new Set([competitorName]),
      ),
    });
  }

  const prompts = texts(input.prompts, "prompts", new Set());
  const organised = organisePrompts(prompts, input.prompt_tags, input.paused_prompts, problem);
  let category: string | null = null;
  if (input.category !== null) {
    category = cleanText(input.category);
    if (category === "") problem("category", "must not be empty; send null to clear it");
  }
  const facts = normalizeFacts(input.facts, problem);
  // Case-insensitive when matched, so "Target audience" and "target audience" are one phrase.
  const exclusions = texts(input.exclusions, "exclusions", new Set());

  // A domain named twice with the same category is a duplicate (dropped); with two categories, a contradiction.
  const citationCategories: CategoryOverride[] = [];
  for (const [index, entry] of input.citation_categories.entries()) {
    const domain = normalizeDomain(entry.domain);
    const field = `citation_categories[${index}]`;
    if (domain === null) {
      problem(`${field}.domain`, "must be a domain name such as example.com");
      continue;
    }
    const earlier = citationCategories.find((o) => o.domain === domain);
    if (earlier === undefined) citationCategories.push({ domain, category: entry.category });
    else if (earlier.category !== entry.category)
      problem(`${field}.domain`, `${domain} is already put in the category ${earlier.category}`);
  }

  const engines: string[] = [];
  for (const [index, engine] of input.engines.entries()) {
    if (!knownEngines.includes(engine))
      problem(`engines[${index}]`, `unknown engine; engines are ${knownEngines.join(", ")}`);
    else if (!engines.includes(engine)) engines.push(engine);
  }
  if (input.engines.length === 0) problem("engines", "must name at least one engine");

  let country: string | null = null;
  if (input.country !== null) {
    const checked = checkCountry(input.country);
    if (checked.ok) country = checked.value;
    else problem("country", checked.issue);
  }
  const countries: string[] = [];
  for (const [index, code] of input.countries.entries()) {
    const checked = checkCountry(code);
    if (!checked.ok) problem(`countries[${index}]`, checked.issue);
    else if (!countries.includes(checked.value)) countries.push(checked.value);
  }
  let language: string | null = null;
  if (input.language !== null) {
    const checked = checkLanguage(input.language);
    if (checked.ok) language = checked.value;
    else problem("language", checked.issue);
  }

  if (details.length > 0 || primary === null) throw validationError(details);
  return {
    name,
    primary_domain: primary,
    other_domains: otherDomains,
    aliases,
    case_sensitive_aliases: caseSensitiveAliases,
    exclusions,
    citation_categories: citationCategories,
    competitors,
    prompts,
    prompt_tags: organised.prompt_tags,
    paused_prompts: organised.paused_prompts,
    category,
    facts,
    engines,
    country,
    countries,
    language,
  };
}

/** The fact sheet with its texts cleaned; features deduplicated (first spelling wins). */
function normalizeFacts(input: FactSheet, problem: (field: string, issue: string) => void): FactSheet {
  const facts: FactSheet = {};
  if (input.founded_year !== undefined) facts.founded_year = input.founded_year;
  if (input.headquarters !== undefined) {
    const headquarters = cleanText(input.headquarters);
    if (headquarters === "") problem("facts.headquarters", "must not be empty; leave it out to clear it");
    else facts.headquarters = headquarters;
  }
  if (input.starting_price !== undefined) facts.starting_price = input.starting_price;
  if (input.free_plan !== undefined) facts.free_plan = input.free_plan;
  if (input.features !== undefined) {
    const features: string[] = [];
    for (const [index, value] of input.features.entries()) {
      const feature = cleanText(value);
      if (feature === "") problem(`facts.features[${index}]`, "must not be empty");
      else if (!features.some((f) => fold(f) === fold(feature))) features.push(feature);
    }
    facts.features = features;
  }
  return facts;
}
