import { afterAll, beforeAll, expect, it } from "vitest";
import { simulatedRivals } from "../../src/services/engines/adapters/sandbox.ts";
import type { EngineAdapter } from "../../src/services/engines/types.ts";
import { usageOf } from "../../src/services/engines/usage.ts";
import { describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";
import { Site } from "../helpers/website.ts";

const HOME = `<!doctype html><html lang="en-GB"><head><title>Northwind | The CRM for small agencies</title>
<meta name="description" content="Northwind is a CRM for small agencies that want their pipeline in one place.">
</head><body><h1>Your pipeline, finally in one place</h1>
<p>Switching from HubSpot takes a day. Northwind vs Pipedrive: see why agencies choose us.</p>
<a href="/about">About us</a> <a href="/pricing">Pricing</a></body></html>`;
const ABOUT = `<html lang="en-GB"><body><h1>About Northwind</h1><p>Founded in 2016 and headquartered in Leeds, England.</p></body></html>`;
const PRICING = `<html><body><h1>Pricing</h1><ul><li>Free plan for up to 2 users</li><li>Team — £29 per month</li></ul></body></html>`;

interface Suggestion {
  value: unknown;
  source: string;
  detail: string;
}

/** A vendor that answers with a fixed text (null: it fails). */
function scripted(name: string, text: (prompt: string) => string | null): EngineAdapter {
  return {
    name,
    reach: { persona: "system", country: "user_location", conversation: "history" },
    ask: async (query) => {
      const answer = text(query.prompt);
      if (answer === null) {
        return {
          ok: false,
          error: { code: "ENGINE_FAILURE", message: "vendor is down", retryable: false, status: 500, retryAfter: null },
        };
      }
      const usage = usageOf({});
      return { ok: true, answer: { text: answer, model: `${name}-test`, citations: [], searches: [], usage } };
    },
  };
}

const credits = async (h: Harness, t: Tenant) => (await h.call("getUsage", { key: t.key })).json().credits.used;

describeEachDialect(
  "brand suggestions from a website",
  (h) => {
    let site: Site;
    beforeAll(async () => {
      site = await new Site().start();
      site.pages.set("/", { body: HOME });
      site.pages.set("/about", { body: ABOUT });
      site.pages.set("/pricing", { body: PRICING });
    });
    afterAll(async () => site.stop());

    it("proposes the brand from its pages, competitors and prompts from the sandbox, each with its source", async () => {
      const t = await h.tenant("growth");
      const res = await h.call("suggestBrand", { key: t.key, body: { website: site.url } });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      const home = `${site.url}/`;
      expect(body.engine).toBe("sandbox");
      expect(body.name).toEqual({ value: "Northwind", source: home, detail: "the page's title" });
      expect(body.category).toMatchObject({ value: "CRM for small agencies", source: home });
      expect(body.language).toMatchObject({ value: "en", source: home });
      expect(body.country).toMatchObject({ value: "GB", source: home });
      expect(body.facts.founded_year).toMatchObject({ value: 2016, source: `${site.url}/about` });
      expect(body.facts.headquarters).toMatchObject({ value: "Leeds, England", source: `${site.url}/about` });
      expect(body.facts.starting_price).toMatchObject({
        value: { amount: 29, currency: "GBP", period: "month" },
        source: `${site.url}/pricing`,
      });
      expect(body.facts.free_plan).toMatchObject({ value: true, source: `${site.url}/pricing` });
      // The pages' two competitors, then the sandbox's simulated market, labelled as such.
      const competitors: Suggestion[] = body.competitors;
      expect(competitors.slice(0, 2).map((c) => [c.value, c.source])).toEqual([
        ["HubSpot", home],
        ["Pipedrive", home],
      ]);
      const simulated = competitors.slice(2);
      expect(simulated.map((c) => c.value)).toEqual(simulatedRivals("Northwind", ["HubSpot", "Pipedrive"]));
      for (const c of simulated) expect(c.source).toBe("sandbox");
      // 10–20 prompts across the funnel, none naming the brand.
      const prompts: (Suggestion & { stage: string; tags: string[] })[] = body.prompts;
      expect(prompts.length).toBeGreaterThanOrEqual(10);
      expect(prompts.length).toBeLessThanOrEqual(20);
      expect(new Set(prompts.map((p) => p.stage))).toEqual(new Set(["awareness", "consideration", "decision"]));
      for (const p of prompts) {
        expect(p.source).toBe("sandbox");
        expect(p.tags).toEqual([`funnel:${p.stage}`]);
        expect(String(p.value)).not.toMatch(/northwind/i);
      }
      expect(body.pages.filter((p: { read: boolean }) => p.read).map((p: { url: string }) => p.url)).toEqual([
        home,
        `${site.url}/about`,
        `${site.url}/pricing`,
      ]);
      // One credit, as a prompt suggestion; nothing stored.
      expect(await credits(h, t)).toBe(1);
      expect(await h.count("projects", t.workspace.id)).toBe(0);
      // The same site, the same suggestions.
      const again = await h.call("suggestBrand", { key: t.key, body: { website: site.url } });
      expect(again.json()).toEqual(body);
    });

    it("asks a configured engine for competitors and prompts, and falls back to the sandbox when it fails", async () => {
      const t = await h.tenant("agency");
      h.deps.engines.use(
        scripted("chatgpt", (prompt) =>
          prompt.includes("brands or products")
            ? "1. **Close** - simple CRM\n2. Pipedrive\n3. Northwind\n4. Copper (Google Workspace CRM)"
            : "1. [awareness] Why do agencies need a CRM at all?\n2. [decision] Which CRM do agencies like Northwind use?\n3. [consideration] Which agency CRM has a client portal?",
        ),
      );
      const res = await h.call("suggestBrand", { key: t.key, body: { website: site.url, engine: "chatgpt" } });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.engine).toBe("chatgpt");
      expect(body.competitors.map((c: Suggestion) => [c.value, c.source])).toEqual([
        ["HubSpot", `${site.url}/`],
        ["Pipedrive", `${site.url}/`],
        ["Close", "chatgpt"],
        ["Copper", "chatgpt"],
      ]);
      expect(body.prompts.map((p: Suggestion) => [p.value, p.source])).toEqual([
        ["Why do agencies need a CRM at all?", "chatgpt"],
        ["Which agency CRM has a client portal?", "chatgpt"],
      ]);
      expect(await credits(h, t)).toBe(2);

      h.deps.engines.use(scripted("chatgpt", () => null));
      const failed = await h.call("suggestBrand", { key: t.key, body: { website: site.url, engine: "chatgpt" } });
      expect(failed.statusCode, failed.body).toBe(200);
      expect(failed.json().engine).toBe("sandbox");
      expect(failed.json().notices[0]).toMatch(/^chatgpt could not suggest competitors: vendor is down/);
      expect(failed.json().prompts[0].source).toBe("sandbox");
    });

    it("reads an address typed without a scheme over HTTP when the site does not speak HTTPS", async () => {
      const t = await h.tenant("growth");
      const typed = site.url.replace(/^http:\/\//, "");
      const res = await h.call("suggestBrand", { key: t.key, body: { website: typed } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().name).toMatchObject({ value: "Northwind", source: `${site.url}/` });
      // Over HTTPS first: the plain-HTTP site answered that attempt with no TLS, and was then read over HTTP.
      expect(res.json().pages.some((page: { url: string }) => page.url.startsWith("https://"))).toBe(false);
    });

    it("says clearly when a site cannot be read, and refuses what is not an address", async () => {
      const t = await h.tenant("growth");
      const closed = await new Site().start();
      const url = closed.url;
      await closed.stop();
      const res = await h.call("suggestBrand", { key: t.key, body: { website: url } });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
      expect(res.json().error.details[0]).toMatchObject({ field: "website" });
      expect(res.json().error.details[0].issue).toMatch(/could not be read: .*fill in the brand by hand/);
      // In plain words, not the network library's.
      expect(res.json().error.details[0].issue).toContain("the site refused the connection");
      const robots = await new Site().start();
      try {
        robots.pages.set("/robots.txt", { type: "text/plain", body: "User-agent: *\nDisallow: /\n" });
        robots.pages.set("/", { body: HOME });
        const disallowed = await h.call("suggestBrand", { key: t.key, body: { website: robots.url } });
        expect(disallowed.statusCode).toBe(400);
        expect(disallowed.json().error.details[0].issue).toMatch(/robots\.txt/);
      } finally {
        await robots.stop();
      }
      for (const website of ["not a site", "ftp://northwind.io"]) {
        const bad = await h.call("suggestBrand", { key: t.key, body: { website } });
        expect(bad.statusCode, website).toBe(400);
        expect(bad.json().error.details[0].field).toBe("website");
      }
      const engine = await h.call("suggestBrand", { key: t.key, body: { website: site.url, engine: "nope" } });
      expect(engine.statusCode).toBe(400);
      expect(await credits(h, t)).toBe(0);
    });

    it("reads at most ten websites a minute per workspace", async () => {
      const t = await h.tenant("growth");
      for (let i = 0; i < 10; i++) {
        const res = await h.call("suggestBrand", { key: t.key, body: { website: site.url } });
        expect(res.statusCode, res.body).toBe(200);
      }
      const refused = await h.call("suggestBrand", { key: t.key, body: { website: site.url } });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe("RATE_LIMIT_EXCEEDED");
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      const other = await h.tenant("growth");
      expect((await h.call("suggestBrand", { key: other.key, body: { website: site.url } })).statusCode).toBe(200);
    });
  },
  { config: { webhookAllowPrivate: true } },
);
