import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { isEngineName } from "../services/engines/catalog.ts";
import { ConfigValueError, parseHttpUrl } from "./parse.ts";

/** How to reach one engine's vendor. */
export interface VendorSettings {
  apiKey: string | null;
  baseUrl: string | null;
  model: string;
}

export interface CustomEngineSettings {
  name: string;
  baseUrl: string;
  model: string;
  apiKey: string | null;
}

export interface EngineConfig {
  vendors: {
    chatgpt: VendorSettings;
    claude: VendorSettings;
    gemini: VendorSettings;
    perplexity: VendorSettings;
    grok: VendorSettings;
    deepseek: VendorSettings;
    google_ai_overview: VendorSettings;
  };
  custom: CustomEngineSettings[];
  timeoutMs: number;
  maxRetries: number;
  /** Requests in flight at once per engine, per worker process. */
  concurrency: number;
  sandboxLatencyMs: number;
}

export type VendorEngine = keyof EngineConfig["vendors"];

/** Each vendor engine: its variables' prefix and default model. */
export const VENDORS: Record<VendorEngine, { prefix: string; model: string; vendor: string }> = {
  chatgpt: { prefix: "OPENAI", model: "gpt-5-mini", vendor: "OpenAI Responses API with web search" },
  claude: { prefix: "ANTHROPIC", model: "claude-sonnet-4-6", vendor: "Anthropic Messages API with web search" },
  gemini: { prefix: "GEMINI", model: "gemini-2.5-flash", vendor: "Gemini API with Google Search grounding" },
  perplexity: { prefix: "PERPLEXITY", model: "sonar", vendor: "Perplexity Sonar" },
  grok: { prefix: "XAI", model: "grok-4", vendor: "xAI Grok" },
  deepseek: { prefix: "DEEPSEEK", model: "deepseek-chat", vendor: "DeepSeek" },
  google_ai_overview: { prefix: "SERPAPI", model: "google-ai-overview", vendor: "SerpApi (Google AI Overviews)" },
};

const NAME = /^[a-z][a-z0-9_]{0,39}$/;

/** SIGHTLINE_CUSTOM_ENGINES: inline JSON, or the path of a JSON file, listing OpenAI-compatible endpoints. */
export function parseCustomEngines(raw: string, cwd: string): CustomEngineSettings[] {
  const value = raw.trim();
  let text = value;
  if (!value.startsWith("[")) {
    const path = resolve(cwd, value);
    if (!existsSync(path))
      throw new ConfigValueError(`must be a JSON array or the path of a JSON file; ${path} does not exist`);
    text = readFileSync(path, "utf8");
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ConfigValueError("is not valid JSON");
  }
  if (!Array.isArray(data))
    throw new ConfigValueError('must be a JSON array of {"name", "base_url", "model", "api_key"?}');
  const seen = new Set<string>();
  return data.map((entry: unknown, index) => {
    const item = entry as Record<string, unknown>;
    const where = `entry ${index}`;
    if (typeof item !== "object" || item === null) throw new ConfigValueError(`${where} is not an object`);
    const name = item.name;
    if (typeof name !== "string" || !NAME.test(name)) {
      throw new ConfigValueError(`${where}: name must be lower-case letters, digits and _ (e.g. "llama3_local")`);
    }
    if (isEngineName(name) || seen.has(name)) {
      throw new ConfigValueError(`${where}: the name "${name}" is already taken`);
    }
    seen.add(name);
    if (typeof item.base_url !== "string") throw new ConfigValueError(`${where}: base_url is required`);
    if (typeof item.model !== "string" || item.model === "") throw new ConfigValueError(`${where}: model is required`);
    const allowed = new Set(["name", "base_url", "model", "api_key"]);
    const unknown = Object.keys(item).find((key) => !allowed.has(key));
    if (unknown !== undefined) throw new ConfigValueError(`${where}: unknown field "${unknown}"`);
    return {
      name,
      baseUrl: parseHttpUrl(item.base_url),
      model: item.model,
      apiKey: typeof item.api_key === "string" ? item.api_key : null,
    };
  });
}

/** No vendor credentials: only the sandbox answers. What tests and a bare `npm start` get. */
export function defaultEngineConfig(): EngineConfig {
  const vendor = (engine: VendorEngine): VendorSettings => ({
    apiKey: null,
    baseUrl: null,
    model: VENDORS[engine].model,
  });
  return {
    vendors: {
      chatgpt: vendor("chatgpt"),
      claude: vendor("claude"),
      gemini: vendor("gemini"),
      perplexity: vendor("perplexity"),
      grok: vendor("grok"),
      deepseek: vendor("deepseek"),
      google_ai_overview: vendor("google_ai_overview"),
    },
    custom: [],
    timeoutMs: 90_000,
    maxRetries: 2,
    concurrency: 4,
    sandboxLatencyMs: 0,
  };
}
