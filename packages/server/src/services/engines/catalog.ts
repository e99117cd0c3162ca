/** Every engine Sightline knows by name. Custom OpenAI-compatible endpoints come from config. */
export const ENGINES = [
  "sandbox",
  "chatgpt",
  "claude",
  "gemini",
  "perplexity",
  "grok",
  "deepseek",
  "google_ai_overview",
] as const;

export type EngineName = (typeof ENGINES)[number];

export function isEngineName(value: string): value is EngineName {
  return (ENGINES as readonly string[]).includes(value);
}
