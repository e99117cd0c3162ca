import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpPageFetcher } from "../../src/services/websites/fetcher.ts";
import { readPage } from "../../src/services/websites/page.ts";
import { readWebsite, websiteAddress } from "../../src/services/websites/read.ts";
import { parseRobots } from "../../src/services/websites/robots.ts";
import { suggestFromPages } from "../../src/services/websites/suggest.ts";
import { Site } from "../helpers/website.ts";

const HOME = `<!doctype html><html lang="en-GB"><head><title>Northwind CRM | The CRM for small agencies</title>
<meta property="og:site_name" content="Northwind">
<meta name="description" content="Northwind is a CRM for small agencies that want their pipeline in one place.">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Northwind","legalName":"Northwind Software Ltd","foundingDate":"2016-03-01","address":{"@type":"PostalAddress","addressLocality":"Leeds","addressRegion":"England","addressCountry":"GB"},"sameAs":["https://www.linkedin.com/company/northwind","https://northwind.io"]}</script>
<script>document.write("<h1>never run</h1>")</script>
</head><body><h1>Your pipeline, finally in one place</h1>
<h2>Shared inbox for clients</h2><ul><li>Slack integration</li><li>Mobile app for iOS</li><li>Time tracking built in</li></ul>
<p>Switching from HubSpot takes a day. Northwind vs Pipedrive: see why agencies choose us.</p>
<a href="/company/about-us">About</a> <a href="/pricing">Pricing</a> <a href="/features">Features</a> <a href="https://elsewhere.example/pricing">Partner</a>
</body></html>`;

const ABOUT = `<html lang="en-GB"><body><h1>About Northwind</h1><p>Founded in 2016 and headquartered in Leeds, England.</p>
<p>Unlike Salesforce, we build only for agencies of up to 50 people.</p></body></html>`;

const PRICING = `<html><body><h1>Pricing</h1><ul><li>Free plan for up to 2 users</li><li>Team — £29 per month</li><li>Agency — £79/month</li></ul></body></html>`;

const FEATURES = `<html><body><h1>Features</h1><h2>Client portal</h2><h2>Proposal templates</h2><ul><li>Slack integration</li><li>Zapier automation</li></ul></body></html>`;

describe("the website reader", () => {
  let site: Site;
  const fetcher = new HttpPageFetcher({ allowPrivate: true, resolver: { resolve: async () => ["127.0.0.1"] } });
  beforeAll(async () => {
    site = await new Site().start();
    site.pages.set("/", { body: HOME });
    site.pages.set("/company/about-us", { body: ABOUT });
    site.pages.set("/pricing", { body: PRICING });
    site.pages.set("/features", { body: FEATURES });
    site.pages.set("/robots.txt", { type: "text/plain", body: "User-agent: *\nDisallow: /admin\n" });
  });
  afterAll(async () => site.stop());

  it("reads the home page and its about, pricing and features pages, and says where each suggestion comes from", async () => {
    const reading = await readWebsite(fetcher, new URL(site.url));
    if (!reading.ok) throw new Error(reading.reason);
    expect(reading.pages.map((page) => new URL(page.url).pathname)).toEqual([
      "/",
      "/company/about-us",
      "/pricing",
      "/features",
    ]);
    expect(site.asked[0]).toBe("/robots.txt");
    const suggestion = suggestFromPages(reading.pages);
    expect(suggestion.name).toEqual({
      value: "Northwind",
      source: { url: `${site.url}/`, from: "its JSON-LD Organization's name" },
    });
    expect(suggestion.aliases.map((a) => a.value)).toEqual(["Northwind Software Ltd", "Northwind Software"]);
    expect(suggestion.domains.map((d) => d.value)).toEqual(["127.0.0.1", "northwind.io"]);
    expect(suggestion.category?.value).toBe("CRM for small agencies");
    expect(suggestion.language?.value).toBe("en");
    expect(suggestion.country?.value).toBe("GB");
    expect(suggestion.facts.founded_year?.value).toBe(2016);
    expect(suggestion.facts.headquarters?.value).toBe("Leeds, England");
    expect(suggestion.facts.free_plan?.value).toBe(true);
    expect(suggestion.facts.starting_price).toMatchObject({
      value: { amount: 29, currency: "GBP", period: "month" },
      source: { url: `${site.url}/pricing` },
    });
    expect(suggestion.facts.features?.map((f) => f.value)).toEqual(
      expect.arrayContaining(["Client portal", "Proposal templates", "Slack integration", "Zapier automation"]),
    );
    expect(suggestion.competitors.map((c) => c.value)).toEqual(["HubSpot", "Pipedrive", "Salesforce"]);
    for (const competitor of suggestion.competitors) expect(competitor.source.from).toMatch(/^“/);
  });

  it("takes a kind of product for the category, never a slogan, and every competitor of a list", () => {
    const plain = readPage(
      "https://brightdesk.example/",
      `<html><head><title>Brightdesk | Help desk software for small teams</title>
      <meta name="description" content="Brightdesk is help desk software for small support teams."></head>
      <body><h1>Support your customers, not your tools</h1>
      <p>Teams switch to Brightdesk from Zendesk and Freshdesk in a day.</p>
      <p>Why agencies move from Help Scout, Front or Kayako.</p></body></html>`,
    );
    const described = suggestFromPages([plain]);
    expect(described.category).toEqual({
      value: "help desk software for small support teams",
      source: { url: "https://brightdesk.example/", from: "its description" },
    });
    expect(described.competitors.map((c) => c.value)).toEqual([
      "Zendesk",
      "Freshdesk",
      "Help Scout",
      "Front",
      "Kayako",
    ]);
    // Without a description, the title's other half names the kind of product; the slogan never does.
    const titled = readPage(
      "https://brightdesk.example/",
      "<html><head><title>Brightdesk | Help desk software for small teams</title></head><body><h1>Support your customers, not your tools</h1></body></html>",
    );
    expect(suggestFromPages([titled]).category).toEqual({
      value: "Help desk software for small teams",
      source: { url: "https://brightdesk.example/", from: "its title" },
    });
    const slogan = readPage(
      "https://brightdesk.example/",
      "<html><head><title>Brightdesk</title></head><body><h1>Support your customers, not your tools</h1></body></html>",
    );
    expect(suggestFromPages([slogan]).category).toBeNull();
  });

  it("keeps text and data only: scripts are neither run nor read", () => {
    const page = readPage("https://northwind.io/", HOME);
    expect(page.headings).not.toContain("never run");
    expect(JSON.stringify(page)).not.toContain("document.write");
    expect(page.jsonLd[0]).toMatchObject({ name: "Northwind" });
  });

  it("respects robots.txt: a site that disallows us is not read, a disallowed page is left out", async () => {
    const closed = await new Site().start();
    try {
      closed.pages.set("/robots.txt", { type: "text/plain", body: "User-agent: SightlineBot\nDisallow: /\n" });
      closed.pages.set("/", { body: HOME });
      const reading = await readWebsite(fetcher, new URL(closed.url));
      expect(reading.ok).toBe(false);
      expect(closed.asked).toEqual(["/robots.txt"]);
      const rules = parseRobots("User-agent: *\nDisallow: /private\nAllow: /private/ok$\n", "SightlineBot");
      expect([rules.allows("/"), rules.allows("/private/x"), rules.allows("/private/ok")]).toEqual([true, false, true]);
    } finally {
      await closed.stop();
    }
  });

  it("takes a website as people type it", () => {
    expect(websiteAddress("northwind.io")?.toString()).toBe("https://northwind.io/");
    expect(websiteAddress(" http://www.northwind.io/en ")?.toString()).toBe("http://www.northwind.io/en");
    for (const bad of ["", "not a site", "ftp://northwind.io", "localhost", "javascript:alert(1)"]) {
      expect(websiteAddress(bad), bad).toBeNull();
    }
  });
});
