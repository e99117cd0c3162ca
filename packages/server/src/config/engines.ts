import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ENGINE_DESCRIPTORS, isEngineName } from "../services/engines/catalog.ts";
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
