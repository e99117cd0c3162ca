import { describe, expect, it } from "vitest";
import { brandCandidates } from "../../src/services/analytics/brand-candidates.ts";

const names = (text: string) => brandCandidates(text).found.map((c) => [c.name, c.foundIn, c.position]);

describe("brand candidates in an answer", () => {
  it("takes the leading name of list items with their place, table rows but not the header, and bold names", () => {
    expect(names("1. **Zoho CRM**: cheap\n2. Monday.com is flexible\n3. Start with a trial")).toEqual([
      ["Zoho CRM", "list", 1],
      ["Zoho CRM", "bold", null],
      ["Monday.com", "list", 2],
    ]);
    expect(names("| Brand | Price |\n|---|---|\n| Freshsales | $ |\n| **Keap** | $$ |")).toEqual([
      ["Freshsales", "table", null],
      ["Keap", "table", null],
      ["Keap", "bold", null],
    ]);
    // Bullets count from 1 again after a paragraph. An ordinary word ("Copper") is never a brand on its own.
    expect(names("- **Copper** is fine")).toEqual([]);
    expect(names("- Attio is new\n\nMore:\n\n- Salesflare is small")).toEqual([
      ["Attio", "list", 1],
      ["Salesflare", "list", 1],
    ]);
  });

  it("gives the same key to spellings that differ only in case or typography", () => {
    const keys = ["**Ben & Jerry’s**", "**BEN &amp; JERRY'S**", "**Ｂen & Jerry's**"].map(
      (text) => brandCandidates(text).found[0]?.key,
    );
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBe("ben & jerry's");
  });

  it("leaves out headings, ordinary words and long phrases", () => {
    const text = [
      "**Pricing**",
      "**Pros and cons**",
      "**Best for**: teams",
      "**Summary**",
      "**Conclusion**",
      "**Verdict**",
      "- Easy setup",
      "**This Is Not A Brand Name At All**",
      "**lowercase thing**",
    ].join("\n");
    expect(names(text)).toEqual([]);
  });

  it("returns the names either side of vs, versus and or, for the caller to keep next to a tracked brand", () => {
    expect(brandCandidates("Acme CRM vs Salesforce, or HubSpot or Close.io versus Attio.").pairs).toEqual([
      ["Acme CRM", "Salesforce"],
      ["HubSpot", "Close.io"],
    ]);
  });
});
