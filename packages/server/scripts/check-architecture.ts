import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { cycles, featureGraph, importGraph } from "./architecture.ts";

/**
 * CI's check of the layout (run by `npm run lint`), of the server and of the web app. Import
 * boundaries between the server's layers are Biome's `noRestrictedImports` rules (biome.json);
 * unused exports are knip's. Here:
 * - no import cycle between files anywhere, nor between the features of the server's services/
 *   and of the web app's features/;
 * - one route runner: only http/runner.ts runs a route's handler (doors admit, it runs);
 * - one owner per table, where the layout has settled it: only services/results/ writes `results`;
 * - one contract: the web app reaches the server only through its generated client (lib/api.ts):
 *   no `fetch` elsewhere, and no URL of the API written by hand;
 * - one naming rule for test files: `<subject>.test.ts`, `<subject>.security.test.ts` (an attacker's
 *   view) or `<subject>.browser.test.ts` (a real Chromium), kebab-case, in an area's folder.
 */
const server = resolve(import.meta.dirname, "../src");
const web = resolve(import.meta.dirname, "../../web/src");

const serverGraph = importGraph(server);
// services/context.ts is the interface the process assembly (app/) fills in: it names the type of
// every dependency a service may use, so its type-only imports reach every feature by design.
const services = featureGraph(
  importGraph(server, (file) => file === "services/context.ts"),
  "services",
);
const webGraph = importGraph(web);
const webFeatures = featureGraph(webGraph, "features");

/** Lines of `file` (under `root`) matching `pattern`, as `file:line`. */
function matches(root: string, file: string, pattern: RegExp): string[] {
  return readFileSync(join(root, file), "utf8")
    .split("\n")
    .flatMap((line, index) => (pattern.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line) ? [`${file}:${index + 1}`] : []));
}

/** Every `*.test.ts` under `dir`, relative to the repository's packages folder. */
function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : testFiles(path);
    return name.endsWith(".test.ts") ? [path] : [];
  });
}
const packages = resolve(import.meta.dirname, "../..");
const TEST_NAME = /^[a-z0-9]+(-[a-z0-9]+)*(\.(security|browser))?\.test\.ts$/;

const RUNNER = "http/runner.ts";
const CLIENT = "lib/api.ts";
const problems = [
  ...cycles(serverGraph).map((cycle) => `server files import each other: ${cycle.join(" ⇄ ")}`),
  ...cycles(services).map((cycle) => `services' features import each other: ${cycle.join(" ⇄ ")}`),
  ...cycles(webGraph).map((cycle) => `web files import each other: ${cycle.join(" ⇄ ")}`),
  ...cycles(webFeatures).map((cycle) => `web features import each other: ${cycle.join(" ⇄ ")}`),
  // A route's handler is called in one place: a second caller is a second runner, which drifts.
  ...[...serverGraph.keys()]
    .filter((file) => file !== RUNNER)
    .flatMap((file) => matches(server, file, /\.handler\s*(\(|\.(call|apply|bind)\b)|\bhandler\s*:\s*route\b/))
    .filter((place) => !place.startsWith("services/accounts/identity.ts"))
    .map((place) => `a second route runner: ${place} runs a route's handler (mount the table with http/runner.ts)`),
  ...[...serverGraph.keys()]
    .filter((file) => !file.startsWith("services/results/"))
    .flatMap((file) => matches(server, file, /(insertInto|updateTable|deleteFrom)\(\s*["']results["']/))
    .map((place) => `${place} writes the results table, which services/results/ owns (call it instead)`),
  ...[...webGraph.keys()]
    .filter((file) => file !== CLIENT && !file.startsWith("generated/"))
    .flatMap((file) => [
      ...matches(web, file, /(?<![.\w])fetch\s*\(/).map((place) => `${place} calls fetch`),
      ...matches(web, file, /["'`]\/(app\/api|v1)(\/|["'`?])|["'`]\/workspaces\/\$\{/).map(
        (place) => `${place} writes an API URL by hand`,
      ),
    ])
    .map((problem) => `the web app's contract: ${problem} (call the generated client in ${CLIENT})`),
];
for (const pkg of ["server", "web", "sdk"]) {
  let files: string[] = [];
  try {
    files = testFiles(join(packages, pkg, "test"));
  } catch {
    continue; // a package without tests
  }
  for (const file of files) {
    const name = file.split("/").pop() ?? "";
    if (!TEST_NAME.test(name)) {
      problems.push(`test file ${file.slice(packages.length + 1)}: name it <subject>[.security|.browser].test.ts`);
    }
  }
}
if (problems.length > 0) {
  for (const problem of problems) console.error(`✖ ${problem}`);
  process.exit(1);
}
console.log(
  `architecture: ${serverGraph.size} server files and ${webGraph.size} web files; no import cycle between files or features, one route runner, the web app on its generated client`,
);
