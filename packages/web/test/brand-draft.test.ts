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
    });
    expect(changesOf(project, draftOf(project))).toEqual({});
    // A project read without the newer fields (an older server) is not "changed" by opening the form.
    const { case_sensitive_aliases: _cs, exclusions: _ex, citation_categories: _cc, ...older } = project;
    const olderProject = { ...older, competitors: [{ name: "HubSpot", domains: ["hubspot.com"], aliases: [] }] };
    expect(changesOf(olderProject, draftOf(olderProject))).toEqual({});
    expect(changesOf(project, { ...draftOf(project), exclusions: "acme of skill\n\n target audience " })).toEqual({
      exclusions: ["acme of skill", "target audience"],
    });
    expect(changesOf(project, { ...draftOf(project), country: "", prompts: "best crm" })).toEqual({
      country: null,
      prompts: ["best crm"],
    });
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
