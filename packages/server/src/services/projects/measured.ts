import type { MeasuredProject } from "../measurement/types.ts";
import type { Project } from "./types.ts";

/** The brand as the measurement sees it: its names, domains, competitors and exclusion phrases. */
export function measuredProject(project: Project): MeasuredProject {
  return {
    brand: {
      name: project.name,
      aliases: project.aliases,
      case_sensitive_aliases: project.case_sensitive_aliases,
      domains: [project.primary_domain, ...project.other_domains],
    },
    competitors: project.competitors,
    exclusions: project.exclusions,
    citation_categories: project.citation_categories ?? [],
    language: project.language,
  };
}
