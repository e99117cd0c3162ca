import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultEngineConfig } from "../../src/config/engines.ts";
import { ChatCompletionsAdapter } from "../../src/services/engines/adapters/chat-completions.ts";
import { percent, proportion, sentiment } from "../../src/services/glossary/format.ts";
import { GLOSSARY, METRIC_IDS, type MetricId } from "../../src/services/glossary/metrics.ts";
import { engineTitle } from "../../src/services/labels.ts";
import { type FakeChatCompletions, startFakeChatCompletions } from "../helpers/fake-vendors/index.ts";
import { describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";

/**
 * Issue 24: one vocabulary. The glossary is whole, and what people and models read (the API
 * reference, the MCP tools, the opportunities' titles) reads it, with engines by their names.
 */

describe("the glossary", () => {
  it("defines every figure whole: no empty name, hint, count, scale, n, interval, significance or field", () => {
    expect(Object.keys(GLOSSARY).sort()).toEqual([...METRIC_IDS].sort());
    for (const id of METRIC_IDS) {
      const definition = GLOSSARY[id];
      for (const [key, value] of Object.entries(definition)) {
        if (Array.isArray(value)) {
          expect(value.length, `${id}.${key}`).toBeGreaterThan(0);
          for (const field of value) expect(field.trim(), `${id}.${key}`).not.toBe("");
        } else {
          expect(String(value).trim(), `${id}.${key}`).not.toBe("");
        }
      }
    }
    // One name per figure.
    expect(new Set(METRIC_IDS.map((id) => GLOSSARY[id].name)).size).toBe(METRIC_IDS.length);
  });
});

type JsonSchema = { description?: string; $ref?: string; properties?: Record<string, JsonSchema> };

/** A workspace's own engine whose id is not a word, answering from a local fake OpenAI-compatible vendor. */
const OWN_ENGINE = "house_llama";
/** Engine ids as they would leak into text: the id itself, case and all. */
const ENGINE_ID = /\b(sandbox|sandbox_web|house_llama)\b/;
const PROMPTS = ["best CRM for a small agency", "CRM with a good Slack integration"];

describeEachDialect(
  "the vocabulary people read",
  (h: Harness) => {
    let t: Tenant;
    let projectId: string;
    let fake: FakeChatCompletions;
    let client: Client;

    const analyze = async (body: Record<string, unknown>) => {
      const res = await h.call("analyze", { key: t.key, body: { project_id: projectId, wait: 60, ...body } });
      expect(res.statusCode, res.body).toBe(200);
      h.clock.advance(60_000);
    };

    beforeAll(async () => {
      await h.startWorker();
      fake = await startFakeChatCompletions({ flavour: "plain" });
      h.deps.engines.use(
        new ChatCompletionsAdapter(
          { name: OWN_ENGINE, apiKey: "test-key", baseUrl: fake.url, model: "llama-1" },
          5_000,
        ),
        8,
      );
      t = await h.tenant("agency");
      projectId = (
        await h.call("createProject", {
          key: t.key,
          body: {
            name: "Acme CRM",
            aliases: ["Acme"],
            primary_domain: "acmecrm.com",
            competitors: [
              { name: "HubSpot", domains: ["hubspot.com"] },
              { name: "Pipedrive", domains: ["pipedrive.com"] },
            ],
            prompts: PROMPTS,
          },
        })
      ).json().id;
      await analyze({ engines: ["sandbox", "sandbox_web"], samples: 5 });
      // The own engine names the brand in every answer, then in none: a drop on that engine.
      fake.setAnswer({ text: "1. **Acme CRM** is a strong choice.\n2. **HubSpot** is popular.", citations: [] });
      await analyze({ engines: [OWN_ENGINE], samples: 5 });
      fake.setAnswer({ text: "1. **HubSpot** leads the category.\n2. **Pipedrive** is good.", citations: [] });
      await analyze({ engines: [OWN_ENGINE], samples: 5 });

      const address = await h.app.listen({ host: "127.0.0.1", port: 0 });
      client = new Client({ name: "glossary-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL("/mcp", address), {
          requestInit: { headers: { authorization: `Bearer ${t.key}` } },
        }),
      );
    });

    afterAll(async () => {
      await client?.close();
      await fake?.stop();
    });

    it("describes the figures in the API reference in the glossary's words", async () => {
      const res = await h.app.inject({ method: "GET", url: "/v1/openapi.json" });
      expect(res.statusCode).toBe(200);
      const schemas = (res.json() as { components: { schemas: Record<string, JsonSchema> } }).components.schemas;
      const described = (schema: JsonSchema | undefined): string => {
        const name = schema?.$ref?.split("/").pop();
        return (name === undefined ? schema?.description : schemas[name]?.description) ?? "";
      };
      const property = (component: string, ...path: string[]) => {
        let schema = schemas[component];
        for (const key of path) schema = schema?.properties?.[key];
        return described(schema);
      };

      // Each figure field: its glossary name and what it counts.
      const figures: [string, string[], MetricId][] = [
        ["Summary", ["visibility"], "visibility"],
        ["Summary", ["share_of_voice"], "share_of_voice"],
        ["Summary", ["average_position"], "average_position"],
        ["Summary", ["sentiment_score"], "sentiment"],
        ["Summary", ["citation_rate"], "citation_rate"],
        ["Summary", ["citation_share"], "citation_share"],
        ["Summary", ["visibility_score"], "visibility_score"],
        ["AnalyticsFigures", ["visibility"], "visibility"],
        ["AnalyticsFigures", ["share_of_voice"], "share_of_voice"],
        ["AnalyticsFigures", ["average_position"], "average_position"],
        ["AnalyticsFigures", ["sentiment_score"], "sentiment"],
        ["AnalyticsFigures", ["citation_rate"], "citation_rate"],
        ["AnalyticsFigures", ["visibility_score"], "visibility_score"],
        ["Result", ["score"], "visibility_score"],
        ["Analysis", ["cost"], "cost"],
        ["SurfaceComparison", ["api"], "visibility"],
      ];
      for (const [component, path, id] of figures) {
        const text = property(component, ...path);
        expect(text, `${component}.${path.join(".")}`).toContain(GLOSSARY[id].name);
        expect(text, `${component}.${path.join(".")}`).toContain(GLOSSARY[id].counts);
      }
      expect(property("Summary", "sentiment_score")).toContain(GLOSSARY.sentiment.scale);
      expect(property("Result", "score")).toContain(GLOSSARY.visibility_score.counts);
      expect(property("Cost", "total")).toContain(GLOSSARY.cost.scale);

      // The per-answer sentiment is the polarity, and says so, pointing at the 0–100 figure.
      const brand = (schemas.Result?.properties?.brand ?? {}) as JsonSchema;
      const polarity = brand.properties?.sentiment?.description ?? "";
      expect(polarity).toContain(GLOSSARY.sentiment.name);
      expect(polarity).toContain("−1 to +1");
      expect(polarity).toContain("`sentiment_score`");
      expect(brand.properties?.stance?.description).toContain(GLOSSARY.stance.name);

      // Every change of the metrics says how it is judged real.
      const changes = schemas.ProjectMetrics?.properties?.changes?.properties ?? {};
      const changeIds: Record<string, MetricId> = {
        visibility: "visibility",
        share_of_voice: "share_of_voice",
        average_position: "average_position",
        sentiment_score: "sentiment",
        citation_rate: "citation_rate",
        visibility_score: "visibility_score",
      };
      expect(Object.keys(changes).sort()).toEqual(Object.keys(changeIds).sort());
      for (const [field, id] of Object.entries(changeIds)) {
        expect(changes[field]?.description, field).toContain(GLOSSARY[id].significance);
      }

      const opportunity = (schemas.Opportunities?.properties?.data as { items?: JsonSchema } | undefined)?.items;
      expect(opportunity?.properties?.impact?.description).toContain(GLOSSARY.opportunity_impact.counts);
      const ranked = (schemas.CompetitorLeaderboard?.properties?.data as { items?: JsonSchema } | undefined)?.items;
      expect(described(ranked?.properties?.visibility)).toContain(GLOSSARY.visibility.counts);
      expect(ranked?.properties?.share_of_voice?.description).toContain(GLOSSARY.share_of_voice.counts);
    });

    it("names the figures in the MCP tools' descriptions by the glossary, with their scales", async () => {
      const { tools } = await client.listTools();
      const description = (name: string) => tools.find((tool) => tool.name === name)?.description ?? "";
      const metrics = description("get_metrics");
      for (const id of [
        "visibility",
        "share_of_voice",
        "average_position",
        "sentiment",
        "citation_rate",
        "visibility_score",
      ] as const) {
        expect(metrics, id).toContain(GLOSSARY[id].name);
        expect(metrics, id).toContain(GLOSSARY[id].scale);
      }
      for (const name of ["list_results", "get_result"]) {
        expect(description(name), name).toContain(GLOSSARY.sentiment.name);
        expect(description(name), name).toContain(GLOSSARY.visibility_score.name);
        expect(description(name), name).toContain("`brand.sentiment` is the classifier's polarity, −1 to +1");
      }
      expect(description("list_opportunities")).toContain(GLOSSARY.opportunity_impact.hint.slice(1));
      for (const name of ["get_analysis", "get_report"]) {
        expect(description(name), name).toContain(GLOSSARY.citation_rate.name.toLowerCase());
      }
    });

    it("gives get_metrics' figures to people by their names and formats, engines by name, the JSON unchanged", async () => {
      const result = (await client.callTool({
        name: "get_metrics",
        arguments: { project_id: projectId },
      })) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      const [json, text] = result.content;
      if (json?.type !== "text" || text?.type !== "text") throw new Error("expected two text blocks");
      const metrics = JSON.parse(json.text);
      expect(result.structuredContent).toEqual(metrics);
      expect(Object.keys(metrics.total.by_engine).sort()).toEqual([OWN_ENGINE, "sandbox", "sandbox_web"]);

      const figures = metrics.total.overall.figures;
      expect(figures.sentiment_score).not.toBeNull();
      expect(text.text).toContain(`- ${GLOSSARY.sentiment.name}: ${sentiment(figures.sentiment_score)};`);
      expect(text.text).toMatch(/- Sentiment: \d+\.\d \/ 100;/);
      expect(text.text).toContain(`- ${GLOSSARY.visibility.name}: ${proportion(figures.visibility)};`);
      expect(text.text).toContain(`- ${GLOSSARY.share_of_voice.name}: ${percent(figures.share_of_voice)};`);
      expect(text.text).toContain(`- ${GLOSSARY.citation_rate.name}: ${proportion(figures.citation_rate)};`);
      for (const engine of [OWN_ENGINE, "sandbox", "sandbox_web"]) {
        const slice = metrics.total.by_engine[engine];
        expect(text.text).toContain(
          `- ${engineTitle(engine)}, ${slice.counts.answers} answers: ${GLOSSARY.visibility.name} ${proportion(slice.figures.visibility)}`,
        );
      }
      expect(text.text).not.toMatch(ENGINE_ID);
    });

    it("names engines in opportunities' titles and explanations by their names, keeping ids in `engines`", async () => {
      const res = await h.call("listOpportunities", {
        key: t.key,
        params: { id: projectId },
        query: { limit: 100 },
      });
      expect(res.statusCode, res.body).toBe(200);
      const data = res.json().data as { kind: string; title: string; explanation: string; engines: string[] }[];
      expect(data.length).toBeGreaterThan(0);
      for (const o of data) {
        expect(o.title, o.title).not.toMatch(ENGINE_ID);
        expect(o.explanation, o.explanation).not.toMatch(ENGINE_ID);
        for (const engine of o.engines) expect([OWN_ENGINE, "sandbox", "sandbox_web"]).toContain(engine);
      }
      // The own engine's drop is one an engine is named in: by its name, never its id.
      const drops = data.filter((o) => o.kind === "visibility_drop");
      expect(drops.map((o) => o.engines)).toEqual(PROMPTS.map(() => [OWN_ENGINE]));
      for (const drop of drops) {
        expect(drop.title).toMatch(new RegExp(`^Win back ".+" on ${engineTitle(OWN_ENGINE)}$`));
        expect(drop.explanation).toContain(`${GLOSSARY.visibility.name} fell from 100% (`);
      }
      expect(engineTitle(OWN_ENGINE)).toBe("House llama");
    });
  },
  {
    config: {
      engines: {
        ...defaultEngineConfig(),
        custom: [{ name: OWN_ENGINE, baseUrl: "http://127.0.0.1:9", model: "llama-1", apiKey: null }],
      },
    },
  },
);
