import type { Static } from "typebox";
import type {
  CompetitorSchema,
  FactSheetSchema,
  ProjectCreateSchema,
  ProjectSchema,
  ProjectUpdateSchema,
} from "./schemas.ts";

/** A competing brand, as stored and shown. */
export type Competitor = Static<typeof CompetitorSchema>;

/** The brand's fact sheet: what answers are checked against. */
export type FactSheet = Static<typeof FactSheetSchema>;

/** A brand, as the API, the events and the dashboard show it. */
export type Project = Static<typeof ProjectSchema>;

export type ProjectInput = Static<typeof ProjectCreateSchema>;

export type ProjectPatch = Static<typeof ProjectUpdateSchema>;

/** The settings a client can change, i.e. every field but ids and timestamps. */
export const PROJECT_SETTINGS = [
  "name",
  "primary_domain",
  "other_domains",
  "aliases",
  "case_sensitive_aliases",
  "exclusions",
  "citation_categories",
  "competitors",
  "prompts",
  "prompt_tags",
  "paused_prompts",
  "category",
  "facts",
  "engines",
  "country",
  "countries",
  "language",
] as const satisfies readonly (keyof ProjectInput & keyof Project)[];

export type ProjectSettings = Pick<Project, (typeof PROJECT_SETTINGS)[number]>;

/** Engines a new project measures when the request names none: the offline sandbox. */
export const DEFAULT_PROJECT_ENGINES = ["sandbox"];
