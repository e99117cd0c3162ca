import { describe, expect, it } from "vitest";
import { fileSlug, toCsv } from "../src/lib/csv.ts";

describe("csv", () => {
  it("quotes what needs it and defuses spreadsheet formulas", () => {
    expect(
      toCsv([
        ["Prompt", "Visibility (%)"],
        ['best "CRM", cheap', 45.1],
        ["=HYPERLINK(1)", null],
      ]),
    ).toBe('Prompt,Visibility (%)\r\n"best ""CRM"", cheap",45.1\r\n\'=HYPERLINK(1),\r\n');
  });

  it("names files plainly", () => {
    expect(fileSlug("Acmé CRM", "visibility", "2026-11-01")).toBe("acme-crm-visibility-2026-11-01");
  });
});
