export interface Competitor {
  name: string;
  domains: string[];
  aliases: string[];
}

/** A brand, as the API, the events and the dashboard show it. */
export interface Project {
  id: string;
  object: "project";
  name: string;
  primary_domain: string;
  other_domains: string[];
  aliases: string[];
  competitors: Competitor[];
  prompts: string[];
  engines: string[];
  country: string | null;
  language: string | null;
  created_at: string;
  updated_at: string;
}

export interface CompetitorInput {
  name: string;
  domains?: string[];
  aliases?: string[];
}

export interface ProjectInput {
  name: string;
  primary_domain: string;
  other_domains?: string[];
  aliases?: string[];
  competitors?: CompetitorInput[];
  prompts?: string[];
  engines?: string[];
  country?: string | null;
  language?: string | null;
}

export type ProjectPatch = Partial<ProjectInput>;

/** The settings a client can change, i.e. every field but ids and timestamps. */
export const PROJECT_SETTINGS = [
  "name",
  "primary_domain",
  "other_domains",
  "aliases",
  "competitors",
  "prompts",
  "engines",
  "country",
  "language",
] as const satisfies readonly (keyof ProjectInput & keyof Project)[];

export type ProjectSettings = Pick<Project, (typeof PROJECT_SETTINGS)[number]>;

/** Engines a new project measures when the request names none: the offline sandbox. */
export const DEFAULT_PROJECT_ENGINES = ["sandbox"];

export const PROJECT_LIMITS = {
  nameLength: 200,
  domains: 20,
  aliases: 20,
  competitors: 50,
  prompts: 200,
  promptLength: 2_000,
} as const;
