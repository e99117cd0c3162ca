import { resolve } from "node:path";
import { cycles, featureGraph, importGraph } from "./architecture.ts";

/**
 * CI's check of the layout (run by `npm run lint`): no import cycle between files anywhere in the
 * server, and none between the features of services/. Import boundaries between layers are
 * Biome's `noRestrictedImports` rules (biome.json); unused exports are knip's.
 */
const root = resolve(import.meta.dirname, "../src");
const graph = importGraph(root);
// services/context.ts is the interface the process assembly (app/) fills in: it names the type of
// every dependency a service may use, so its type-only imports reach every feature by design.
const features = featureGraph(
  importGraph(root, (file) => file === "services/context.ts"),
  "services",
);
const problems = [
  ...cycles(graph).map((cycle) => `files import each other: ${cycle.join(" ⇄ ")}`),
  ...cycles(features).map((cycle) => `features import each other: ${cycle.join(" ⇄ ")}`),
];
if (problems.length > 0) {
  for (const problem of problems) console.error(`✖ ${problem}`);
  process.exit(1);
}
console.log(`architecture: ${graph.size} files, no import cycle between files or between services' features`);
