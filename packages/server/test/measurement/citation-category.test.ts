import { describe, expect, it } from "vitest";
import { CATEGORY_VERSION, categorizeDomain } from "../../src/services/measurement/citation-category.ts";
import { citationCategory } from "../../src/services/measurement/citations.ts";
import { compileProject, measureAnswer } from "../../src/services/measurement/measure.ts";
import { measuredProject } from "../../src/services/projects/measured.ts";

const none = { brandDomains: [], competitorDomains: [] };

describe("citation categories", () => {
  it("is versioned", () => {
    expect(CATEGORY_VERSION).toBe("1");
  });

  it("classifies the built-in list on the domain and its subdomains", () => {
    expect(categorizeDomain("en.wikipedia.org", none)).toBe("reference");
    expect(categorizeDomain("fr.wikipedia.org", none)).toBe("reference");
    expect(categorizeDomain("britannica.com", none)).toBe("reference");
    expect(categorizeDomain("old.reddit.com", none)).toBe("social");
    expect(categorizeDomain("youtube.com", none)).toBe("social");
    expect(categorizeDomain("x.com", none)).toBe("social");
    expect(categorizeDomain("unix.stackexchange.com", none)).toBe("social");
    expect(categorizeDomain("nytimes.com", none)).toBe("news");
    expect(categorizeDomain("www.theverge.com", none)).toBe("news");
    expect(categorizeDomain("lemonde.fr", none)).toBe("news");
    expect(categorizeDomain("techradar.com", none)).toBe("news");
    expect(categorizeDomain("g2.com", none)).toBe("review");
    expect(categorizeDomain("capterra.com", none)).toBe("review");
    expect(categorizeDomain("apps.apple.com", none)).toBe("review");
    expect(categorizeDomain("play.google.com", none)).toBe("review");
    expect(categorizeDomain("example.com", none)).toBe("other");
  });

  it("matches any-suffix entries on the name under a public suffix only", () => {
    expect(categorizeDomain("amazon.com", none)).toBe("review");
    expect(categorizeDomain("amazon.de", none)).toBe("review");
    expect(categorizeDomain("www.amazon.co.uk", none)).toBe("review");
    expect(categorizeDomain("tripadvisor.fr", none)).toBe("review");
    expect(categorizeDomain("amazon.example.com", none)).toBe("other");
    expect(categorizeDomain("notamazon.com", none)).toBe("other");
  });

  it("does not match a look-alike that only ends with a listed name", () => {
    expect(categorizeDomain("myreddit.com", none)).toBe("other");
    expect(categorizeDomain("x.com.evil.net", none)).toBe("other");
    // apple.com itself is not a marketplace; only its app store is.
    expect(categorizeDomain("apple.com", none)).toBe("other");
  });

  it("puts the brand's and competitors' domains first", () => {
    const ctx = { brandDomains: ["medium.com"], competitorDomains: ["g2.com", "rival.io"] };
    expect(categorizeDomain("blog.medium.com", ctx)).toBe("owned");
    expect(categorizeDomain("g2.com", ctx)).toBe("competitor");
    expect(categorizeDomain("docs.rival.io", ctx)).toBe("competitor");
  });

  it("applies project overrides before the built-in list, but after owned and competitor", () => {
    const ctx = {
      brandDomains: ["acme.com"],
      competitorDomains: ["rival.io"],
      overrides: [
        { domain: "reddit.com", category: "review" as const },
        { domain: "industry-weekly.com", category: "news" as const },
        { domain: "acme.com", category: "other" as const },
        { domain: "rival.io", category: "social" as const },
        { domain: "wikipedia.org", category: "other" as const },
        { domain: "de.wikipedia.org", category: "social" as const },
      ],
    };
    expect(categorizeDomain("reddit.com", ctx)).toBe("review");
    expect(categorizeDomain("www.industry-weekly.com", ctx)).toBe("news");
    expect(categorizeDomain("acme.com", ctx)).toBe("owned");
    expect(categorizeDomain("rival.io", ctx)).toBe("competitor");
    expect(categorizeDomain("en.wikipedia.org", ctx)).toBe("other");
    expect(categorizeDomain("de.wikipedia.org", ctx)).toBe("social");
  });

  it("never throws on odd input", () => {
    expect(categorizeDomain("", none)).toBe("other");
    expect(categorizeDomain("  ", none)).toBe("other");
    expect(categorizeDomain("localhost", none)).toBe("other");
    expect(categorizeDomain("REDDIT.COM.", none)).toBe("social");
  });
});

describe("measured citations carry their category", () => {
  const project = {
    brand: { name: "Acme", aliases: [], domains: ["acme.com"] },
    competitors: [{ name: "Rival", aliases: [], domains: ["rival.io"] }],
    citation_categories: [{ domain: "industry-weekly.com", category: "news" as const }],
  };

  it("classifies every citation of an answer, with the project's overrides", () => {
    const m = measureAnswer(compileProject(project), {
      text: "See https://industry-weekly.com/best and https://example.org/x.",
      citations: [
        { url: "https://www.acme.com/pricing", title: null },
        { url: "https://rival.io/", title: null },
        { url: "https://en.wikipedia.org/wiki/Acme", title: "Acme" },
        { url: "https://www.reddit.com/r/tools", title: null },
        { url: "https://www.g2.com/products/acme", title: null },
      ],
    });
    expect(Object.fromEntries(m.citations.map((c) => [c.domain, c.category]))).toEqual({
      "acme.com": "owned",
      "rival.io": "competitor",
      "en.wikipedia.org": "reference",
      "reddit.com": "social",
      "g2.com": "review",
      "industry-weekly.com": "news",
      "example.org": "other",
    });
  });

  it("derives the category of a citation stored before categories existed", () => {
    const old = { url: "https://x", title: null, brand: false, competitor: null };
    expect(citationCategory({ ...old, domain: "en.wikipedia.org" })).toBe("reference");
    expect(citationCategory({ ...old, domain: "acme.com", brand: true })).toBe("owned");
    expect(citationCategory({ ...old, domain: "rival.io", competitor: "Rival" })).toBe("competitor");
    expect(citationCategory({ ...old, domain: "example.org" })).toBe("other");
    expect(citationCategory({ ...old, domain: "example.org", category: "news" })).toBe("news");
  });
});

describe("a project's citation categories reach the measurement", () => {
  it("passes them into the measured project", () => {
    const measured = measuredProject({
      id: "prj_x",
      object: "project",
      name: "Acme",
      primary_domain: "acme.com",
      other_domains: [],
      aliases: [],
      citation_categories: [{ domain: "reddit.com", category: "review" }],
      competitors: [],
      prompts: [],
      engines: ["sandbox"],
      country: null,
      countries: [],
      language: null,
      created_at: "2026-11-21T12:00:00.000Z",
      updated_at: "2026-11-21T12:00:00.000Z",
    });
    const m = measureAnswer(compileProject(measured), {
      text: "",
      citations: [{ url: "https://www.reddit.com/r/x", title: null }],
    });
    expect(m.citations[0]?.category).toBe("review");
  });
});
