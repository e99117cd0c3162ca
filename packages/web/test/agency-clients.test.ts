import { describe, expect, it } from "vitest";
import type { AgencyClient } from "../src/features/agencies/agencies-api.ts";
import { clientsCsv } from "../src/features/agencies/clients-csv.ts";
import { firstDirection, sortClients } from "../src/features/agencies/clients-sort.ts";
import { parseCap } from "../src/features/agencies/credit-cap.ts";
import { groupWorkspaces } from "../src/features/shell/workspace-groups.ts";
import type { WorkspaceSummary } from "../src/lib/types.ts";

function client(name: string, over: Partial<AgencyClient> = {}): AgencyClient {
  const none = { value: null, n: 0, count: 0, ci_low: null, ci_high: null };
  return {
    id: `ws_${name.toLowerCase()}`,
    name,
    brands: 0,
    visibility: none,
    visibility_previous: none,
    visibility_change: null,
    visibility_change_significant: null,
    open_alerts: 0,
    credits_used: 0,
    credit_cap: null,
    last_run_at: null,
    next_run_at: null,
    created_at: "2026-11-01T00:00:00.000Z",
    ...over,
  };
}

const seen = (value: number, n: number) => ({ value, n, count: Math.round(value * n), ci_low: 0, ci_high: 1 });

describe("the agency's clients table", () => {
  const clients = [
    client("Globex", { visibility: seen(0.2, 40), credits_used: 30, next_run_at: "2026-11-28T08:00:00.000Z" }),
    client("acme", { visibility: seen(0.6, 10), credits_used: 120, next_run_at: null }),
    client("Initech"),
  ];

  it("sorts by name, either way, case aside", () => {
    expect(sortClients(clients, "name", "ascending").map((c) => c.name)).toEqual(["acme", "Globex", "Initech"]);
    expect(sortClients(clients, "name", "descending").map((c) => c.name)).toEqual(["Initech", "Globex", "acme"]);
  });

  it("puts what was never measured or scheduled last, whichever the direction", () => {
    for (const direction of ["ascending", "descending"] as const) {
      expect(sortClients(clients, "visibility", direction).at(-1)?.name).toBe("Initech");
      expect(
        sortClients(clients, "next_run", direction)
          .map((c) => c.name)
          .slice(1),
      ).toEqual(["acme", "Initech"]);
    }
    expect(sortClients(clients, "visibility", "descending").map((c) => c.name)).toEqual(["acme", "Globex", "Initech"]);
  });

  it("sorts figures largest first and names A to Z on the first click", () => {
    expect(firstDirection("credits")).toBe("descending");
    expect(firstDirection("name")).toBe("ascending");
    expect(firstDirection("next_run")).toBe("ascending");
    expect(sortClients(clients, "credits", "descending").map((c) => c.credits_used)).toEqual([120, 30, 0]);
  });

  it("exports the rows in the order given, figures in percent, no cap said", () => {
    const rows = clientsCsv(sortClients(clients, "credits", "descending"));
    expect(rows).toHaveLength(4);
    expect(rows.slice(1).map((row) => row[0])).toEqual(["acme", "Globex", "Initech"]);
    expect(rows[1]?.slice(2, 7)).toEqual([0, 60, 0, 100, 10]);
    expect(rows[3]?.[3]).toBeNull();
    expect(rows[3]?.[11]).toBe("no cap");
  });

  it("reads a cap as typed", () => {
    expect(parseCap("")).toEqual({ cap: null });
    expect(parseCap(" 1,500 ")).toEqual({ cap: 1500 });
    expect(parseCap("0")).toEqual({ cap: 0 });
    expect("problem" in parseCap("-3")).toBe(true);
    expect("problem" in parseCap("12.5k")).toBe(true);
  });
});

describe("the workspace switcher's groups", () => {
  const agency = { id: "agy_1", name: "Northwind Partners" };
  const workspaces: WorkspaceSummary[] = [
    { id: "ws_1", name: "Acme Bakery", plan: "agency", role: "owner", agency },
    { id: "ws_2", name: "Café Noir", plan: "agency", role: "owner", agency },
    { id: "ws_3", name: "Our own site", plan: "growth", role: "admin", agency: null },
  ];

  it("groups the clients under their agency, then the others", () => {
    const groups = groupWorkspaces(workspaces, [agency], "");
    expect(groups.map((g) => [g.agency?.name ?? null, g.workspaces.map((w) => w.name)])).toEqual([
      ["Northwind Partners", ["Acme Bakery", "Café Noir"]],
      [null, ["Our own site"]],
    ]);
    expect(groups[0]?.agency?.staff).toBe(true);
  });

  it("filters by name, accents and case aside, and by the agency's name", () => {
    expect(groupWorkspaces(workspaces, [agency], "cafe").flatMap((g) => g.workspaces.map((w) => w.name))).toEqual([
      "Café Noir",
    ]);
    expect(groupWorkspaces(workspaces, [agency], "northwind")[0]?.workspaces).toHaveLength(2);
    expect(groupWorkspaces(workspaces, [agency], "nothing")).toEqual([]);
  });

  it("lists an agency one is staff of before it has clients, and one's client of another agency without its home", () => {
    const other = { id: "agy_2", name: "Contoso Media" };
    const groups = groupWorkspaces(
      [{ id: "ws_9", name: "Fabrikam", plan: "agency", role: "viewer", agency: other }],
      [agency],
      "",
    );
    expect(groups.map((g) => [g.agency?.name, g.agency?.staff, g.workspaces.length])).toEqual([
      ["Contoso Media", false, 1],
      ["Northwind Partners", true, 0],
    ]);
  });
});
