import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ENGINE_DESCRIPTORS, isEngineName } from "../services/engines/catalog.ts";
import type { EnginePrice } from "../services/engines/prices.ts";
import type { CustomEngineSettings, EngineConfig } from "../services/engines/settings.ts";
import { variableNames } from "../services/engines/variables.ts";
import { ConfigValueError, parseHttpUrl } from "./parse.ts";

// The engines' settings type and defaults live with their descriptors (services/engines); config
// only reads the environment into them. Re-exported for the callers that found them here.
export { defaultEngineConfig, type EngineConfig } from "../services/engines/settings.ts";

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
    // "judge" names the judge's credits in usage.
    if (isEngineName(name) || seen.has(name) || name === "judge") {
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

/**
 * SIGHTLINE_JUDGE_ENGINE: an engine this server knows AND can ask (its key is configured, or it
 * needs none), checked at start-up so that a judge that could never answer stops the server.
 */
export function parseJudgeEngine(raw: string, engines: EngineConfig): string {
  const name = raw.trim();
  const custom = engines.custom.map((engine) => engine.name);
  if (!isEngineName(name) && !custom.includes(name)) {
    const known = [...ENGINE_DESCRIPTORS.map((d) => d.name), ...custom].join(", ");
    throw new ConfigValueError(`names no engine this server knows ("${name}"); engines are ${known}`);
  }
  const descriptor = ENGINE_DESCRIPTORS.find((d) => d.name === name);
  if (descriptor !== undefined && descriptor.credentials === "api_key") {
    const settings = engines.vendors[descriptor.name];
    if (settings.apiKey === null) {
      throw new ConfigValueError(
        `names ${name}, which has no credentials configured (set ${variableNames(descriptor).apiKey})`,
      );
    }
  }
  return name;
}

const PRICE_FIELDS = {
  input_per_million: "inputPerMillion",
  output_per_million: "outputPerMillion",
  per_search: "perSearch",
  per_request: "perRequest",
} as const satisfies Record<string, keyof EnginePrice>;

/**
 * SIGHTLINE_ENGINE_PRICES: `{"chatgpt": {"input_per_million": 0.25, "per_search": 0.01}}`, the
 * operator's prices in USD for some engines (built-in or custom), any of the four fields, each a
 * number from 0 to 10,000.
 */
export function parseEnginePrices(raw: string, custom: CustomEngineSettings[]): Record<string, Partial<EnginePrice>> {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    throw new ConfigValueError('is not valid JSON; write it as {"chatgpt": {"input_per_million": 0.25}}');
  }
  if (typeof data !== "object" || data === null || Array.isArray(data))
    throw new ConfigValueError(
      'must be a JSON object of engine names and prices, e.g. {"chatgpt": {"per_search": 0.01}}',
    );
  const out: Record<string, Partial<EnginePrice>> = {};
  for (const [name, fields] of Object.entries(data)) {
    if (!isEngineName(name) && !custom.some((engine) => engine.name === name))
      throw new ConfigValueError(`names an unknown engine "${name}"`);
    if (typeof fields !== "object" || fields === null || Array.isArray(fields))
      throw new ConfigValueError(`gives ${name} ${JSON.stringify(fields)}; each engine's prices must be an object`);
    const price: Partial<EnginePrice> = {};
    for (const [field, value] of Object.entries(fields)) {
      const key = Object.hasOwn(PRICE_FIELDS, field) ? PRICE_FIELDS[field as keyof typeof PRICE_FIELDS] : undefined;
      if (key === undefined)
        throw new ConfigValueError(
          `gives ${name} an unknown field "${field}"; the fields are ${Object.keys(PRICE_FIELDS).join(", ")}`,
        );
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 10_000)
        throw new ConfigValueError(
          `gives ${name}.${field} ${JSON.stringify(value)}; prices are numbers from 0 to 10000 (USD)`,
        );
      price[key] = value;
    }
    out[name] = price;
  }
  return out;
}

/**
 * SIGHTLINE_ENGINE_CONCURRENCY_BY_ENGINE: `{"chatgpt": 32, "sandbox": 128}`, each engine's own bound
 * (built-in or custom), 1 to 1024; the others keep SIGHTLINE_ENGINE_CONCURRENCY.
 */
export function parseConcurrencyByEngine(raw: string, custom: CustomEngineSettings[]): Record<string, number> {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    throw new ConfigValueError('is not valid JSON; write it as {"chatgpt": 32}');
  }
  if (typeof data !== "object" || data === null || Array.isArray(data))
    throw new ConfigValueError('must be a JSON object of engine names and numbers, e.g. {"chatgpt": 32}');
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(data)) {
    if (!isEngineName(name) && !custom.some((engine) => engine.name === name))
      throw new ConfigValueError(`names an unknown engine "${name}"`);
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > 1024)
      throw new ConfigValueError(`gives ${name} ${JSON.stringify(value)}; each must be an integer from 1 to 1024`);
    out[name] = value;
  }
  return out;
}
