import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { compileProject, measureAnswer } from "../src/services/measurement/measure.ts";
import type { BrandSpec, MeasuredProject } from "../src/services/measurement/types.ts";

interface Corpus {
  projects: Record<string, { brand: BrandSpec; competitors: BrandSpec[] }>;
  answers: {
    id: string;
    project: string;
    style: string;
    text: string;
    citations: { url: string; title: string | null }[];
    expected: { mentions: string[]; positions: Record<string, number>; brand_cited: boolean };
  }[];
}

const corpus = JSON.parse(readFileSync(resolve(import.meta.dirname, "fixtures/mention-corpus.json"), "utf8")) as Corpus;

describe("mention detection against the labelled corpus", () => {
  const compiled = new Map(
    Object.entries(corpus.projects).map(([key, project]) => [key, compileProject(project as MeasuredProject)]),
  );
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let positionsRight = 0;
  let positionsTotal = 0;
  let citedRight = 0;
  const misses: string[] = [];
  for (const answer of corpus.answers) {
    const project = compiled.get(answer.project);
    if (project === undefined) throw new Error(`unknown project ${answer.project}`);
    const measure = measureAnswer(project, { text: answer.text, citations: answer.citations });
    const all = [measure.brand, ...measure.competitors];
    const found = new Set(all.filter((b) => b.mentioned).map((b) => b.name));
    const expected = new Set(answer.expected.mentions);
    for (const name of found) {
      if (expected.has(name)) tp++;
      else {
        fp++;
        misses.push(`${answer.id}: found ${name}, not labelled`);
      }
    }
    for (const name of expected) {
      if (!found.has(name)) {
        fn++;
        misses.push(`${answer.id}: missed ${name}`);
      }
    }
    for (const [name, position] of Object.entries(answer.expected.positions)) {
      positionsTotal++;
      const got = all.find((b) => b.name === name)?.position;
      if (got === position) positionsRight++;
      else misses.push(`${answer.id}: ${name} ranked ${got}, labelled ${position}`);
    }
    if (measure.brand_cited === answer.expected.brand_cited) citedRight++;
    else misses.push(`${answer.id}: brand_cited ${measure.brand_cited}, labelled ${answer.expected.brand_cited}`);
  }
  const precision = tp / (tp + fp);
  const recall = tp / (tp + fn);
  const positionAccuracy = positionsRight / positionsTotal;
  const citedAccuracy = citedRight / corpus.answers.length;

  it(`has at least 80 labelled answers (${corpus.answers.length})`, () => {
    expect(corpus.answers.length).toBeGreaterThanOrEqual(80);
  });

  it("reaches 0.97 precision and recall", () => {
    console.log(
      `mention detection over ${corpus.answers.length} answers: precision ${precision.toFixed(4)}, recall ${recall.toFixed(4)} ` +
        `(${tp} true, ${fp} false positives, ${fn} missed); positions ${positionAccuracy.toFixed(4)} (${positionsRight}/${positionsTotal}); ` +
        `brand_cited ${citedAccuracy.toFixed(4)}`,
    );
    if (misses.length > 0) console.log(misses.join("\n"));
    expect(precision).toBeGreaterThanOrEqual(0.97);
    expect(recall).toBeGreaterThanOrEqual(0.97);
  });

  it("ranks brands and detects brand citations as labelled (at least 0.95 each)", () => {
    expect(positionAccuracy).toBeGreaterThanOrEqual(0.95);
    expect(citedAccuracy).toBeGreaterThanOrEqual(0.95);
  });
});
