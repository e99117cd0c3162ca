import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { parseSync } from "oxc-parser";

/** File → the files it imports (relative imports only; packages are not part of the layout). */
export type ImportGraph = Map<string, string[]>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return (name.endsWith(".ts") || name.endsWith(".tsx")) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

export interface Imported {
  specifier: string;
  /** `import type` (or every name imported `type`): gone at run time. */
  typeOnly: boolean;
}

/** Every module a file names: static imports, re-exports, `import()` calls and `import("…")` types. */
export function importedSpecifiers(file: string, source: string): Imported[] {
  const { module, errors } = parseSync(file, source);
  if (errors.length > 0) throw new Error(`${file}: ${errors[0]?.message ?? "cannot parse"}`);
  const found: Imported[] = [
    ...module.staticImports.map((entry) => ({
      specifier: entry.moduleRequest.value,
      typeOnly: entry.entries.length > 0 && entry.entries.every((e) => e.isType),
    })),
    ...module.staticExports.flatMap((entry) =>
      entry.entries.flatMap((e) => (e.moduleRequest ? [{ specifier: e.moduleRequest.value, typeOnly: e.isType }] : [])),
    ),
    ...module.dynamicImports.map((entry) => ({
      specifier: source.slice(entry.moduleRequest.start, entry.moduleRequest.end).replace(/^["'`]|["'`]$/g, ""),
      typeOnly: false,
    })),
  ];
  // `import("./x.ts").T` in a type: not a module record, so read from the text (skipping the
  // `import()` calls already found).
  const calls = new Set(module.dynamicImports.map((entry) => entry.start));
  for (const match of source.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)) {
    if (!calls.has(match.index)) found.push({ specifier: match[1] ?? "", typeOnly: true });
  }
  return found.filter((entry) => entry.specifier.startsWith("."));
}

/**
 * The import graph of every `.ts` file under `root`, paths relative to `root`; with `valuesOnly`
 * (for every file, or for the files it is true of), without the imports that exist only for the
 * type checker.
 */
export function importGraph(root: string, valuesOnly: boolean | ((file: string) => boolean) = false): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of sourceFiles(root)) {
    const name = relative(root, file).split(sep).join("/");
    const skipTypes = typeof valuesOnly === "function" ? valuesOnly(name) : valuesOnly;
    const targets = importedSpecifiers(file, readFileSync(file, "utf8"))
      .filter((entry) => !skipTypes || !entry.typeOnly)
      .map((entry) =>
        relative(root, resolve(dirname(file), entry.specifier))
          .split(sep)
          .join("/"),
      );
    graph.set(name, [...new Set(targets)]);
  }
  return graph;
}

/** Strongly connected components of more than one node, or a node importing itself: the cycles. */
export function cycles(graph: ImportGraph): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    indices.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, indices.get(next) ?? 0));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

/**
 * The same graph between features: `services/<feature>/…` files become their feature, other files
 * stay themselves. A feature importing another that imports it back is a cycle even when no two
 * files do (analyses → monitoring → analyses).
 */
export function featureGraph(graph: ImportGraph, featureRoot: string): ImportGraph {
  const featureOf = (file: string): string => {
    if (!file.startsWith(`${featureRoot}/`)) return file;
    const parts = file.slice(featureRoot.length + 1).split("/");
    return parts.length > 1 ? `${featureRoot}/${parts[0]}` : file;
  };
  const features: ImportGraph = new Map();
  for (const [file, targets] of graph) {
    const from = featureOf(file);
    const edges = new Set(features.get(from) ?? []);
    for (const target of targets) {
      const to = featureOf(target);
      if (to !== from) edges.add(to);
    }
    features.set(from, [...edges]);
  }
  return features;
}
