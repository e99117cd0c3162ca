import { describe, expect, it } from "vitest";
import { markMentions, splitMentions } from "../src/lib/highlight.ts";

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

describe("markMentions", () => {
  const open = { brand: "\uE000", competitor: "\uE001" };
  const end = "\uE002";

  it("wraps each measured name at its offsets, the brand and competitors apart", () => {
    const text = "Try Acme CRM; HubSpot is dearer.";
    expect(
      markMentions(text, [
        { name: "HubSpot", brand: false, start: 14, end: 21 },
        { name: "Acme CRM", brand: true, start: 4, end: 12 },
      ]),
    ).toBe(`Try ${open.brand}Acme CRM${end}; ${open.competitor}HubSpot${end} is dearer.`);
  });

  it("leaves names inside addresses, offsets that do not fit and overlaps as they are", () => {
    const text = "See https://acme.com/pricing or [Acme](https://acme.com).";
    const at = (word: string, from = 0) => text.indexOf(word, from);
    const marked = markMentions(text, [
      { name: "Acme", brand: true, start: at("acme"), end: at("acme") + 4 },
      { name: "Acme", brand: true, start: at("Acme"), end: at("Acme") + 4 },
      { name: "Acme", brand: true, start: at("Acme") + 1, end: at("Acme") + 5 },
      { name: "Acme", brand: true, start: 500, end: 504 },
    ]);
    expect(marked).toBe(`See https://acme.com/pricing or [${open.brand}Acme${end}](https://acme.com).`);
  });

  it("keeps the offsets when the text holds the marker characters itself", () => {
    expect(markMentions("\uE000 Acme", [{ name: "Acme", brand: true, start: 2, end: 6 }])).toBe(
      `\uFFFD ${open.brand}Acme${end}`,
    );
  });
});
