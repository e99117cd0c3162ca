import type { ProjectsTable } from "../../db/tables.ts";
import { fromJson, toJson } from "../../lib/json.ts";
import type { Competitor, Project, ProjectSettings } from "./types.ts";

export function rowToProject(row: ProjectsTable): Project {
  return {
    id: row.id,
    object: "project",
    name: row.name,
    primary_domain: row.primary_domain,
    other_domains: fromJson<string[]>(row.other_domains, []),
    aliases: fromJson<string[]>(row.aliases, []),
    competitors: fromJson<Competitor[]>(row.competitors, []),
    prompts: fromJson<string[]>(row.prompts, []),
    engines: fromJson<string[]>(row.engines, []),
    country: row.country,
    language: row.language,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function settingsToColumns(settings: ProjectSettings) {
  return {
    name: settings.name,
    primary_domain: settings.primary_domain,
    other_domains: toJson(settings.other_domains),
    aliases: toJson(settings.aliases),
    competitors: toJson(settings.competitors),
    prompts: toJson(settings.prompts),
    engines: toJson(settings.engines),
    country: settings.country,
    language: settings.language,
  };
}
