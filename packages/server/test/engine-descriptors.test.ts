import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, loadConfig } from "../src/config/config.ts";
import { ENGINE_DESCRIPTORS, ENGINES, VENDOR_DESCRIPTORS } from "../src/services/engines/catalog.ts";
import { ENGINE_TABLE_HEADER, engineTableRows } from "../src/services/engines/readme-table.ts";
import { EngineRegistry } from "../src/services/engines/registry.ts";
import { defaultEngineConfig } from "../src/services/engines/settings.ts";
import { variableNames, variablesOf } from "../src/services/engines/variables.ts";
import { PLAN_NAMES } from "../src/services/plan-names.ts";
import { DEFAULT_PLANS } from "../src/services/plans/catalog.ts";
import { REPO_ROOT } from "./helpers/processes.ts";

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
  it("name each engine once, reach every one through an API, and give each vendor its own prefix", () => {
    const names = ENGINE_DESCRIPTORS.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9_]{0,39}$/);
    for (const descriptor of ENGINE_DESCRIPTORS) expect(descriptor.surface, descriptor.name).toBe("api");
    const prefixes = VENDOR_DESCRIPTORS.map((d) => d.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    expect(ENGINE_DESCRIPTORS.find((d) => d.name === "sandbox")).toMatchObject({ credentials: "none" });
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
