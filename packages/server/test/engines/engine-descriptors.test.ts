import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, loadConfig } from "../../src/config/config.ts";
import { ENGINE_DESCRIPTORS, ENGINES, surfacePairs, VENDOR_DESCRIPTORS } from "../../src/services/engines/catalog.ts";
import { ENGINE_TABLE_HEADER, engineTableRows } from "../../src/services/engines/readme-table.ts";
import { EngineRegistry } from "../../src/services/engines/registry.ts";
import { defaultEngineConfig } from "../../src/services/engines/settings.ts";
import { variableNames, variablesOf } from "../../src/services/engines/variables.ts";
import { PLAN_NAMES } from "../../src/services/plan-names.ts";
import { DEFAULT_PLANS } from "../../src/services/plans/catalog.ts";
import { REPO_ROOT } from "../helpers/processes.ts";

/** The engines the API, the OpenAPI document and the SDK published first, in their order. */
const PUBLISHED = ["sandbox", "chatgpt", "claude", "gemini", "perplexity", "grok", "deepseek", "google_ai_overview"];

/** The markdown table rows of a README section, each as its trimmed cells. */
function tableRows(section: string): string[][] {
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) =>
      line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

function readmeSection(heading: string): string {
  const readme = readFileSync(resolve(REPO_ROOT, "README.md"), "utf8");
  const start = readme.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README.md has no "${heading}" section`);
  const end = readme.indexOf("\n## ", start + heading.length + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The vendor descriptors by prefix, in the descriptors' order (Map.groupBy is Node 21+). */
function byPrefix(): Map<string, (typeof VENDOR_DESCRIPTORS)[number][]> {
  const groups = new Map<string, (typeof VENDOR_DESCRIPTORS)[number][]>();
  for (const descriptor of VENDOR_DESCRIPTORS)
    groups.set(descriptor.prefix, [...(groups.get(descriptor.prefix) ?? []), descriptor]);
  return groups;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

describe("engine descriptors", () => {
  it("name each engine once, and give each web engine an API engine as its counterpart", () => {
    const names = ENGINE_DESCRIPTORS.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9_]{0,39}$/);
    for (const descriptor of ENGINE_DESCRIPTORS) {
      if (descriptor.surface === "api") {
        expect(descriptor.counterpart, descriptor.name).toBeUndefined();
        continue;
      }
      // A web engine's counterpart is optional (Google AI Mode and Copilot have no API of their
      // own); when named, it is a built-in engine reached through its vendor's API.
      if (descriptor.counterpart === undefined) continue;
      const counterpart = ENGINE_DESCRIPTORS.find((d) => d.name === descriptor.counterpart);
      expect(counterpart?.surface, `${descriptor.name} → ${descriptor.counterpart}`).toBe("api");
    }
    expect(surfacePairs()).toEqual([
      { api: "sandbox", web: "sandbox_web" },
      { api: "chatgpt", web: "chatgpt_web" },
      { api: "perplexity", web: "perplexity_web" },
      { api: "gemini", web: "gemini_web" },
    ]);
    expect(ENGINE_DESCRIPTORS.find((d) => d.name === "sandbox")).toMatchObject({ credentials: "none" });
  });

  it("let one provider serve several engines under one prefix, the engines agreeing on its variables", () => {
    const providers = byPrefix();
    for (const [prefix, descriptors] of providers) {
      // One <PREFIX>_MODEL either serves every engine of the provider or none of them.
      expect(new Set(descriptors.map((d) => d.modelVariable)).size, prefix).toBe(1);
    }
    expect(providers.get("SERPAPI")?.map((d) => d.name)).toEqual(["google_ai_overview", "google_ai_mode", "copilot"]);
    expect(providers.get("DATAFORSEO")?.map((d) => d.name)).toEqual(["chatgpt_web", "perplexity_web", "gemini_web"]);
  });

  it("make the engine list, keeping the published engines first and in their order", () => {
    expect(ENGINES).toEqual(ENGINE_DESCRIPTORS.map((d) => d.name));
    expect(ENGINES.slice(0, PUBLISHED.length)).toEqual(PUBLISHED);
  });

  it("decide which default plans include each engine, and the published engines keep theirs", () => {
    for (const plan of PLAN_NAMES) {
      const included = ENGINE_DESCRIPTORS.filter(
        (d) => PLAN_NAMES.indexOf(d.minimumPlan) <= PLAN_NAMES.indexOf(plan),
      ).map((d) => d.name);
      expect([...DEFAULT_PLANS[plan].engines].sort(), plan).toEqual(included.sort());
    }
    const published = (plan: (typeof PLAN_NAMES)[number]) =>
      DEFAULT_PLANS[plan].engines.filter((engine) => PUBLISHED.includes(engine));
    // The order ENGINE_NOT_ALLOWED lists them in: smaller plans' engines first.
    expect(published("free")).toEqual(["sandbox", "chatgpt"]);
    expect(published("starter")).toEqual(["sandbox", "chatgpt", "perplexity"]);
    expect(published("growth")).toEqual(["sandbox", "chatgpt", "perplexity", "gemini", "google_ai_overview"]);
    expect(DEFAULT_PLANS.agency).toMatchObject({ engines: ENGINES, allEngines: true });
    // The web surfaces: Growth gets Google AI Mode, Agency every one of them.
    const web = ["google_ai_mode", "copilot", "chatgpt_web", "perplexity_web", "gemini_web"];
    expect(DEFAULT_PLANS.growth.engines.filter((engine) => web.includes(engine))).toEqual(["google_ai_mode"]);
    expect(DEFAULT_PLANS.starter.engines.filter((engine) => web.includes(engine))).toEqual([]);
    expect(DEFAULT_PLANS.agency.engines.filter((engine) => web.includes(engine))).toEqual(web);
  });

  it("give each vendor engine its documented variables, which the configuration reads", () => {
    for (const descriptor of VENDOR_DESCRIPTORS) {
      const names = variableNames(descriptor);
      for (const variable of variablesOf(descriptor)) expect(CONFIG_VARIABLES).toContainEqual(variable);
      expect(CONFIG_VARIABLES.some((v) => v.name === `${descriptor.prefix}_MODEL`)).toBe(descriptor.modelVariable);
      const env: Record<string, string> = { [names.apiKey]: "key-1", [names.baseUrl]: "http://vendor.test/v1/" };
      if (names.model !== null) env[names.model] = "model-1";
      expect(loadConfig(env, "/").engines.vendors[descriptor.name]).toEqual({
        apiKey: "key-1",
        baseUrl: "http://vendor.test/v1",
        model: names.model === null ? descriptor.defaultModel : "model-1",
      });
      expect(loadConfig({}, "/").engines.vendors[descriptor.name].model).toBe(descriptor.defaultModel);
    }
  });

  it("read a provider's shared variables once, and build every engine of the provider from them", () => {
    const names = CONFIG_VARIABLES.map((variable) => variable.name);
    expect(new Set(names).size).toBe(names.length);
    for (const [prefix, descriptors] of byPrefix()) {
      const config = loadConfig(
        { [`${prefix}_API_KEY`]: "login:secret", [`${prefix}_BASE_URL`]: "http://p.test/" },
        "/",
      );
      for (const descriptor of descriptors) {
        expect(config.engines.vendors[descriptor.name], descriptor.name).toMatchObject({
          apiKey: "login:secret",
          baseUrl: "http://p.test",
        });
      }
      if (descriptors.length > 1) {
        // Documented once, naming every engine it serves.
        const key = CONFIG_VARIABLES.find((variable) => variable.name === `${prefix}_API_KEY`);
        for (const descriptor of descriptors) expect(key?.description).toContain(`\`${descriptor.name}\``);
      }
    }
    const keyed = new EngineRegistry(
      loadConfig({ SERPAPI_API_KEY: "serp", DATAFORSEO_API_KEY: "login:secret" }, "/").engines,
      pino({ level: "silent" }),
    );
    for (const name of [
      "google_ai_overview",
      "google_ai_mode",
      "copilot",
      "chatgpt_web",
      "perplexity_web",
      "gemini_web",
    ]) {
      expect(keyed.isConfigured(name), name).toBe(true);
    }
  });

  it("build the registry: an adapter of the engine's own name with a key, without one a failure naming the variable", async () => {
    const logger = pino({ level: "silent" });
    const config = defaultEngineConfig();
    for (const descriptor of VENDOR_DESCRIPTORS) {
      config.vendors[descriptor.name] = { ...config.vendors[descriptor.name], apiKey: "key-1" };
    }
    // The registry refuses a descriptor whose adapter answers under another name.
    const keyed = new EngineRegistry(config, logger);
    for (const name of ENGINES) expect(keyed.isConfigured(name), name).toBe(true);

    const bare = new EngineRegistry(defaultEngineConfig(), logger);
    const query = { prompt: "best CRM", country: null, language: null, sample: 1, seed: "s" };
    for (const descriptor of VENDOR_DESCRIPTORS) {
      const { outcome } = await bare.ask(descriptor.name, query);
      expect(outcome).toMatchObject({
        ok: false,
        error: { message: expect.stringContaining(variableNames(descriptor).apiKey) },
      });
    }
  });

  it("are what the README's Engines section lists: the engine table and every variable", () => {
    const section = readmeSection("## Engines");
    const rows = tableRows(section);
    const expected = engineTableRows();
    const table = [ENGINE_TABLE_HEADER, ...expected].map((row) => `| ${row.join(" | ")} |`).join("\n");
    expect(
      rows.filter((row) => row.length === ENGINE_TABLE_HEADER.length),
      `README.md's engine table should read:\n${table}`,
    ).toEqual(expected);
    for (const descriptor of VENDOR_DESCRIPTORS) {
      for (const variable of variablesOf(descriptor)) {
        expect(rows).toContainEqual([`\`${variable.name}\``, `\`${variable.default}\``, variable.description]);
      }
    }
  });

  it("depend on nothing under config/: configuration imports engines, never the other way", () => {
    const root = resolve(REPO_ROOT, "packages/server/src/services/engines");
    const offenders = sourceFiles(root).filter((file) =>
      /from\s+["'](\.\.\/)+config\//.test(readFileSync(file, "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});
