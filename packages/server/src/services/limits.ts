/** How big a project and an analysis may be: the schemas, the services and the docs read these. */

export const PROJECT_LIMITS = {
  nameLength: 200,
  domains: 20,
  aliases: 20,
  competitors: 50,
  prompts: 200,
  promptLength: 2_000,
  exclusions: 50,
  exclusionLength: 100,
  citationCategories: 100,
  /** Tags of one prompt, and the characters of one tag. */
  tagsPerPrompt: 10,
  tagLength: 40,
  categoryLength: 200,
} as const;

export const ANALYSIS_LIMITS = { samples: 10, prompts: 200, answers: 2_000 } as const;

/** Alert rules one monitoring schedule may have. */
export const MAX_ALERT_RULES = 20;

/** The longest `POST /v1/analyze` may wait for its analysis, in seconds. */
export const MAX_WAIT_SECONDS = 60;
