import { ownValue } from "../lib/own-keys.ts";
import type { Role } from "./accounts/roles.ts";
import type { Scope } from "./api-keys/scopes.ts";
import type { Surface } from "./engines/descriptor.ts";
import { DESCRIPTORS } from "./engines/descriptors/index.ts";
import type { CitationCategory } from "./measurement/citation-category.ts";

/**
 * Names as people read them, for everything the server's own pages and the web app both show
 * (reports, e-mails, the dashboard): one place, generated into the web app (`npm run codegen`).
 * Ids stay in the API and in CSV files.
 */

/** The engines' names (`chatgpt_web` → `ChatGPT (web)`), from their descriptors. */
export const ENGINE_TITLES: Readonly<Record<string, string>> = Object.fromEntries(
  DESCRIPTORS.map((descriptor) => [descriptor.name, descriptor.title]),
);

/** The two surfaces an engine asks on, as people read them. */
export const SURFACE_TITLES: Readonly<Record<Surface, string>> = {
  api: "API",
  web: "Web (as people see it)",
};

/**
 * An engine as people read it: its title, or for an operator's or a workspace's own engine its
 * name made readable (`house_llama` → "House llama"), never a bare id.
 */
export function engineTitle(engine: string): string {
  const title = ownValue(ENGINE_TITLES, engine);
  if (title !== undefined) return title;
  const words = engine.replace(/[_-]+/g, " ").trim();
  return words === "" ? engine : `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

/** The citation classifier's categories (ADR 0021). */
export const CATEGORY_LABELS: Readonly<Record<CitationCategory, string>> = {
  owned: "Owned",
  competitor: "Competitor",
  social: "Social & forums",
  reference: "Reference",
  news: "News & editorial",
  review: "Reviews & marketplaces",
  other: "Other",
};

/** The roles of a workspace's members, least to most, with what each may do. */
export const ROLE_LABELS: Readonly<Record<Role, { label: string; description: string }>> = {
  viewer: { label: "Viewer", description: "Sees everything except secrets." },
  member: { label: "Member", description: "Also adds and edits brands, prompts, analyses, monitoring and reports." },
  admin: { label: "Admin", description: "Also manages API keys, webhooks and members." },
  owner: { label: "Owner", description: "Also manages owners, renames and deletes the workspace." },
};

/** The API's eight scopes, in the specification's order, with what each grants in its words. */
export const SCOPE_LABELS: Readonly<Record<Scope, { label: string; grants: string }>> = {
  read: {
    label: "Read",
    grants: "Read-only access to every GET endpoint. Grants nothing that creates, spends or deletes.",
  },
  analyze: { label: "Analyze", grants: "Run AI visibility analyses" },
  projects: { label: "Projects", grants: "Create and list projects (brands)" },
  results: { label: "Results", grants: "Read analysis results" },
  reports: { label: "Reports", grants: "Access generated reports" },
  monitoring: { label: "Monitoring", grants: "Manage monitoring schedules" },
  webhooks: { label: "Webhooks", grants: "Create and manage webhooks" },
  usage: { label: "Usage", grants: "View usage statistics" },
};
