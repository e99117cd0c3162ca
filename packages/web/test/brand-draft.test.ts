import type { Project } from "@sightline/sdk";
import { describe, expect, it } from "vitest";
import {
  bodyOf,
  changesOf,
  checkDraft,
  draftOf,
  newCompetitor,
  parsePath,
  serverErrors,
  splitList,
  splitPrompts,
} from "../src/features/brands/brand-draft.ts";
import { ApiError } from "../src/lib/api.ts";

const project: Project = {
  id: "prj_1",
  object: "project",
  name: "Acme",
  primary_domain: "acme.com",
  category: "CRM for small agencies",
  other_domains: ["acme.io"],
  aliases: ["AcmeCRM"],
  case_sensitive_aliases: ["ACME"],
  exclusions: ["acme of skill", "Wile E. Coyote"],
  citation_categories: [{ domain: "crmforum.example", category: "social" }],
  competitors: [{ name: "HubSpot", domains: ["hubspot.com"], aliases: [], case_sensitive_aliases: ["HS"] }],
  prompts: ["best crm", "cheap crm"],
  prompt_tags: { "best crm": ["funnel:decision"] },
  paused_prompts: ["cheap crm"],
  facts: {
    founded_year: 2015,
    headquarters: "Austin, Texas",
    starting_price: { amount: 29, currency: "USD", period: "month" },
    free_plan: true,
    features: ["Slack integration", "mobile app"],
  },
  engines: ["sandbox"],
  country: "US",
  countries: [],
  language: "en",
  created_at: "2026-11-23T00:00:00Z",
  updated_at: "2026-11-23T00:00:00Z",
};

describe("brand form", () => {
  it("reads lists as people type them", () => {
    expect(splitList(" a.com, b.com\nc.com ,, ")).toEqual(["a.com", "b.com", "c.com"]);
    expect(splitPrompts("best crm\n\n  cheap crm \nbest crm\r\nthird")).toEqual(["best crm", "cheap crm", "third"]);
  });

  it("turns a project into the form and back unchanged", () => {
    expect(bodyOf(draftOf(project))).toEqual({
      name: "Acme",
      primary_domain: "acme.com",
      category: "CRM for small agencies",
      other_domains: ["acme.io"],
      aliases: ["AcmeCRM"],
      case_sensitive_aliases: ["ACME"],
      exclusions: ["acme of skill", "Wile E. Coyote"],
      citation_categories: [{ domain: "crmforum.example", category: "social" }],
      competitors: [{ name: "HubSpot", domains: ["hubspot.com"], aliases: [], case_sensitive_aliases: ["HS"] }],
      prompts: ["best crm", "cheap crm"],
      engines: ["sandbox"],
      country: "US",
      language: "en",
      facts: project.facts,
    });
    expect(changesOf(project, draftOf(project))).toEqual({});
    // A project read without the newer fields (an older server) is not "changed" by opening the form.
    const {
      case_sensitive_aliases: _cs,
      exclusions: _ex,
      citation_categories: _cc,
      category: _ca,
      prompt_tags: _pt,
      paused_prompts: _pp,
      facts: _fa,
      ...older
    } = project;
    const olderProject = { ...older, competitors: [{ name: "HubSpot", domains: ["hubspot.com"], aliases: [] }] };
    expect(changesOf(olderProject, draftOf(olderProject))).toEqual({});
    expect(changesOf(project, { ...draftOf(project), exclusions: "acme of skill\n\n target audience " })).toEqual({
      exclusions: ["acme of skill", "target audience"],
    });
    expect(changesOf(project, { ...draftOf(project), country: "", prompts: "best crm" })).toEqual({
      country: null,
      prompts: ["best crm"],
    });
    // The category: trimmed, and cleared as null; tags and switches are the Prompts page's, never sent from here.
    expect(changesOf(project, { ...draftOf(project), category: "  " })).toEqual({ category: null });
    expect(changesOf(project, { ...draftOf(project), category: " CRM for agencies " })).toEqual({
      category: "CRM for agencies",
    });
    expect(Object.keys(bodyOf(draftOf(project)))).not.toContain("prompt_tags");
  });

  it("edits the fact sheet: only what is filled in is sent, and the numbers are checked", () => {
    const draft = draftOf(project);
    expect(
      changesOf(project, {
        ...draft,
        facts: { ...draft.facts, foundedYear: "", priceAmount: "19,99", freePlan: "", features: "Slack integration\n" },
      }),
    ).toEqual({
      facts: {
        headquarters: "Austin, Texas",
        starting_price: { amount: 19.99, currency: "USD", period: "month" },
        features: ["Slack integration"],
      },
    });
    const wrong = { ...draft, facts: { ...draft.facts, foundedYear: "15", priceAmount: "cheap" } };
    expect(checkDraft(wrong)).toMatchObject({
      "facts.founded_year": "Enter the year as four digits, e.g. 2015.",
      "facts.starting_price": "Enter the price as a number, e.g. 29 or 19.99.",
    });
    const currency = { ...draft, facts: { ...draft.facts, priceCurrency: "dollars" } };
    expect(checkDraft(currency)["facts.starting_price"]).toBe(
      "Use a three-letter currency code, e.g. USD, EUR or GBP.",
    );
    // The server's issues land on the fact sheet's fields.
    const error = new ApiError(400, "VALIDATION_ERROR", "facts.founded_year: must be at least 1600", [
      { field: "facts.founded_year", issue: "must be at least 1600" },
    ]);
    expect(serverErrors(error, draft).fields).toEqual({ "facts.founded_year": "must be at least 1600" });
  });

  it("checks what the browser can", () => {
    const draft = { ...draftOf(project), name: " ", engines: [], country: "USA", language: "e_n" };
    expect(Object.keys(checkDraft(draft)).sort()).toEqual(["country", "engines", "language", "name"]);
    const categories = { ...draftOf(project), citationCategories: "g2.com: review\nforum.example = Social\nbad line" };
    expect(checkDraft(categories).citation_categories).toMatch(/^Line 3: write it as domain: category/);
    expect(
      bodyOf({ ...categories, citationCategories: "g2.com: review\nforum.example = Social" }).citation_categories,
    ).toEqual([
      { domain: "g2.com", category: "review" },
      { domain: "forum.example", category: "social" },
    ]);
  });

  it("puts the server's field issues next to the right field, naming the item", () => {
    expect(parsePath("competitors[0].domains[1]")).toEqual(["competitors", 0, "domains", 1]);
    const draft = {
      ...draftOf(project),
      otherDomains: "ok.com, bad",
      // An empty first row is not sent: the server's competitors[0] is the form's second row.
      competitors: [newCompetitor(), newCompetitor({ name: "HubSpot", domains: "hubspot.com, nope" })],
    };
    const error = new ApiError(400, "VALIDATION_ERROR", "primary_domain: bad", [
      { field: "other_domains[1]", issue: "must be a domain name such as example.com" },
      { field: "competitors[0].domains[1]", issue: "must be a domain name such as example.com" },
      { field: "prompts[1]", issue: "is too long" },
    ]);
    expect(serverErrors(error, draft)).toEqual({
      fields: {
        other_domains: "“bad” must be a domain name such as example.com",
        "competitors.1.domains": "“nope” must be a domain name such as example.com",
        prompts: "Prompt 2: is too long",
      },
    });
    const newer = new ApiError(400, "VALIDATION_ERROR", "exclusions[1]: must not be empty", [
      { field: "exclusions[1]", issue: "is too long" },
      { field: "case_sensitive_aliases[0]", issue: "is also one of the brand's aliases" },
      { field: "competitors[0].case_sensitive_aliases[0]", issue: "is too long" },
    ]);
    expect(serverErrors(newer, draftOf(project)).fields).toEqual({
      exclusions: "“Wile E. Coyote” is too long",
      case_sensitive_aliases: "“ACME” is also one of the brand's aliases",
      "competitors.0.case_sensitive_aliases": "“HS” is too long",
    });
  });
});
