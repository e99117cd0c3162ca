import type { ProjectsTable } from "../../db/tables.ts";
import { toJson } from "../../lib/json.ts";
import { projectColumns } from "./columns.ts";
import { purgeAt } from "./live.ts";
import type { Project, ProjectSettings } from "./types.ts";

export function rowToProject(row: ProjectsTable): Project {
  return {
    id: row.id,
    object: "project",
    name: row.name,
    primary_domain: row.primary_domain,
    other_domains: projectColumns.otherDomains.read(row.other_domains),
    aliases: projectColumns.aliases.read(row.aliases),
    case_sensitive_aliases: projectColumns.caseSensitiveAliases.read(row.case_sensitive_aliases),
    exclusions: projectColumns.exclusions.read(row.exclusions),
    citation_categories: projectColumns.citationCategories.read(row.citation_categories),
    competitors: projectColumns.competitors
      .read(row.competitors)
      .map((competitor) => ({ ...competitor, case_sensitive_aliases: competitor.case_sensitive_aliases ?? [] })),
    prompts: projectColumns.prompts.read(row.prompts),
    prompt_tags: projectColumns.promptTags.read(row.prompt_tags),
    paused_prompts: projectColumns.pausedPrompts.read(row.paused_prompts),
    category: row.category,
    facts: projectColumns.facts.read(row.facts),
    engines: projectColumns.engines.read(row.engines),
    country: row.country,
    countries: projectColumns.countries.read(row.countries),
    language: row.language,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.deleted_at === null ? {} : { deleted_at: row.deleted_at, purge_at: purgeAt(row.deleted_at) }),
  };
}

export function settingsToColumns(settings: ProjectSettings) {
  return {
    name: settings.name,
    primary_domain: settings.primary_domain,
    other_domains: toJson(settings.other_domains),
    aliases: toJson(settings.aliases),
    case_sensitive_aliases: toJson(settings.case_sensitive_aliases),
    exclusions: toJson(settings.exclusions),
    citation_categories: toJson(settings.citation_categories),
    competitors: toJson(settings.competitors),
    prompts: toJson(settings.prompts),
    prompt_tags: toJson(settings.prompt_tags ?? {}),
    paused_prompts: toJson(settings.paused_prompts ?? []),
    category: settings.category ?? null,
    facts: toJson(settings.facts ?? {}),
    engines: toJson(settings.engines),
    country: settings.country,
    countries: toJson(settings.countries),
    language: settings.language,
  };
}
