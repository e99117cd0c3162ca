import { createServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpPageFetcher, USER_AGENT } from "../../src/services/websites/fetcher.ts";
import { type ReadPage, readPage } from "../../src/services/websites/page.ts";
import { readTypedWebsite, readWebsite, websiteAddress } from "../../src/services/websites/read.ts";
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
      value: "help desk software for small teams",
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

  it("reads and suggests from a page of 700 KB of one word in well under a second (no regex runs away)", () => {
    const word = "A-".repeat(350_000);
    const html = `<html><head><title>${word}</title></head><body><h1>${word} alternatives</h1><p>${word}</p>
      <ul><li>vs ${word}</li></ul><a href="/x">Switching from ${word}</a><p>Acme vs Zendesk and Help Scout.</p></body></html>`;
    const started = performance.now();
    const page = readPage("https://acme.example/", html);
    const suggestion = suggestFromPages([page]);
    // A guard against a hang, not a benchmark: it took seconds to minutes before.
    expect(performance.now() - started).toBeLessThan(2_000);
    for (const text of [page.title ?? "", ...page.headings, ...page.paragraphs, ...page.items]) {
      expect(text.length).toBeLessThanOrEqual(2_000);
    }
    expect(suggestion.competitors.map((c) => c.value)).toEqual(expect.arrayContaining(["Zendesk", "Help Scout"]));
    // The rules alone stay linear too, on a text that was not cut to size by the page reader.
    const long: ReadPage = {
      ...page,
      headings: [],
      items: [],
      links: [],
      paragraphs: [`${"A-".repeat(50_000)} alternatives`],
    };
    const again = performance.now();
    suggestFromPages([long]);
    expect(performance.now() - again).toBeLessThan(2_000);
  });

  it("reads nothing of a site whose robots.txt fails with a 5xx, everything when it is missing or forbidden", async () => {
    const failing = await new Site().start();
    try {
      failing.pages.set("/robots.txt", { status: 503, type: "text/plain", body: "down" });
      failing.pages.set("/", { body: HOME });
      const reading = await readWebsite(fetcher, new URL(failing.url));
      expect(reading.ok).toBe(false);
      if (!reading.ok) expect(reading.reason).toContain("robots.txt answered 503");
      expect(failing.asked).toEqual(["/robots.txt"]);
      failing.pages.set("/robots.txt", { status: 403, type: "text/plain", body: "no" });
      expect((await readWebsite(fetcher, new URL(failing.url))).ok).toBe(true);
    } finally {
      await failing.stop();
    }
  });

  it("takes a robots.txt group as ours by our product token only, in any case", () => {
    const allowsUs = (agent: string) => parseRobots(`User-agent: ${agent}\nDisallow: /\n`, USER_AGENT).allows("/");
    expect(allowsUs("a")).toBe(true);
    expect(allowsUs("bot")).toBe(true);
    expect(allowsUs("reads")).toBe(true);
    expect(allowsUs("sightlinebot")).toBe(false);
    expect(allowsUs("SIGHTLINEBOT/1.0")).toBe(false);
    expect(allowsUs("*")).toBe(false);
  });

  it("holds one deadline for the whole reading, robots.txt and the HTTP retry included", async () => {
    // A host that takes connections and never answers: every request waits for its time to run out.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const patient = new HttpPageFetcher({
        allowPrivate: true,
        resolver: { resolve: async () => ["127.0.0.1"] },
        limits: { timeoutMs: 600 },
      });
      const typed = `127.0.0.1:${port}`;
      const address = websiteAddress(typed);
      if (address === null) throw new Error("not an address");
      const started = Date.now();
      // Per page 0.6 s: robots + home over HTTPS, then again over HTTP, would take 2.4 s.
      const reading = await readTypedWebsite(patient, typed, address, started + 1_000);
      const took = Date.now() - started;
      expect(reading.ok).toBe(false);
      expect(took).toBeLessThan(1_500);
      if (!reading.ok) expect(reading.visits.at(-1)?.reason).toMatch(/took longer|time for reading the site ran out/);
      // robots.txt is inside the budget too: a robots.txt that never answers is given what is left.
      const slowRobots = Date.now();
      const alone = await readWebsite(
        new HttpPageFetcher({ allowPrivate: true, resolver: { resolve: async () => ["127.0.0.1"] } }),
        new URL(`http://${typed}`),
        slowRobots + 300,
      );
      expect(alone.ok).toBe(false);
      expect(Date.now() - slowRobots).toBeLessThan(1_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
