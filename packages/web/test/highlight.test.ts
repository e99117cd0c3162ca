import { describe, expect, it } from "vitest";
import { splitMentions } from "../src/lib/highlight.ts";

const groups = [
  { kind: "brand" as const, name: "Acme CRM", terms: ["Acme"] },
  { kind: "competitor" as const, name: "HubSpot", terms: ["Hub Spot"] },
];

function marked(text: string) {
  return splitMentions(text, groups)
    .filter((s) => s.mention)
    .map((s) => `${s.mention?.kind}:${s.text}`);
}

describe("highlight", () => {
  it("finds names and aliases, case-insensitive, the longest name first", () => {
    expect(marked("acme crm beats HUBSPOT; Acme is cheaper than Hub Spot.")).toEqual([
      "brand:acme crm",
      "competitor:HUBSPOT",
      "brand:Acme",
      "competitor:Hub Spot",
    ]);
  });

  it("matches whole words only", () => {
    expect(marked("Acmeville and HubSpotter and acme-corp")).toEqual(["brand:acme"]);
    expect(marked("Él prefiere Acme.")).toEqual(["brand:Acme"]);
    expect(marked("Acmé")).toEqual([]);
  });

  it("keeps every character of the text", () => {
    const text = "Try Acme, or HubSpot!";
    expect(
      splitMentions(text, groups)
        .map((s) => s.text)
        .join(""),
    ).toBe(text);
  });
});
