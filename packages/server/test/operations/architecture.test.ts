import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { cycles, featureGraph, type ImportGraph, importedSpecifiers, importGraph } from "../../scripts/architecture.ts";

const graph = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));

describe("the architecture check", () => {
  it("reads every kind of import, and tells type-only ones", () => {
    const found = importedSpecifiers(
      "x.ts",
      `import type { A } from "./a.ts";
       import { type B, c } from "../b.ts";
       export { d } from "./d.ts";
       export * from "./e.ts";
       import pino from "pino";
       const f = await import("./f.ts");
       type G = import("./g.ts").G;`,
    );
    expect(found).toEqual([
      { specifier: "./a.ts", typeOnly: true },
      { specifier: "../b.ts", typeOnly: false },
      { specifier: "./d.ts", typeOnly: false },
      { specifier: "./e.ts", typeOnly: false },
      { specifier: "./f.ts", typeOnly: false },
      { specifier: "./g.ts", typeOnly: true },
    ]);
  });

  it("finds a cycle between files, however long, and a file importing itself", () => {
    expect(cycles(graph({ a: ["b"], b: ["c"], c: ["a"], d: ["a"] }))).toEqual([["a", "b", "c"]]);
    expect(cycles(graph({ a: ["a"] }))).toEqual([["a"]]);
    expect(cycles(graph({ a: ["b"], b: ["c"], c: [] }))).toEqual([]);
  });

  it("finds a cycle between features that no two files have", () => {
    // analyses/run → monitoring/runs → analyses/create: no file cycle, a feature cycle.
    const files = graph({
      "services/analyses/run.ts": ["services/monitoring/runs.ts"],
      "services/monitoring/runs.ts": ["services/analyses/create.ts"],
      "services/analyses/create.ts": ["services/context.ts"],
      "services/context.ts": [],
    });
    expect(cycles(files)).toEqual([]);
    expect(cycles(featureGraph(files, "services"))).toEqual([["services/analyses", "services/monitoring"]]);
  });

  it("finds no cycle in the server today", () => {
    const root = resolve(import.meta.dirname, "../../src");
    expect(cycles(importGraph(root))).toEqual([]);
    expect(
      cycles(
        featureGraph(
          importGraph(root, (file) => file === "services/context.ts"),
          "services",
        ),
      ),
    ).toEqual([]);
  });
});
