import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ambiguousNames, compileProject, measureAnswer } from "../../src/services/measurement/measure.ts";
import type {
  BrandSpec,
  MeasuredProject,
  MeasureOptions,
  SourceCitation,
} from "../../src/services/measurement/types.ts";
import { Tally, type Tone, toneOf } from "../helpers/accuracy.ts";

/**
 * The measurement's contract on answers it was never tuned on (issue 25): the held-out corpus in
 * fixtures/heldout/, written from a list of situations by writers who never saw the rules, split
 * once at random (split.json) into a tuning half and a test half. The rules are tuned on the
 * tuning half only; this test prints both halves, says which of issue 25's GOALS the TEST half
 * meets, per language and overall, and fails when the test half falls below FLOOR: what the
 * rules measured on it when last changed. The goals are not all met yet (issue 25 is blocked on
 * tone and stance; see docs/adr/0034-held-out-measurement.md): raise FLOOR with every change that
 * lifts the test half, never lower it. Misses are printed for the tuning half only: the test
 * half's stay unseen (SIGHTLINE_SHOW_TEST_MISSES=1 shows them, to check a label, never to tune on).
 * How the corpus was written and split: fixtures/heldout/README.md.
 */
const GOALS = { precision: 0.99, recall: 0.99, position: 0.97, sentiment: 0.92, stance: 0.9 } as const;
type Metric = keyof typeof GOALS;
/** The test half as measured by the rules when they last changed (per language, and "all"). */
const FLOOR: Record<string, Record<Metric, number>> = {
  de: { precision: 0.96, recall: 0.96, position: 0.944, sentiment: 0.666, stance: 0.761 },
  en: { precision: 0.977, recall: 0.977, position: 0.965, sentiment: 0.609, stance: 0.781 },
  es: { precision: 0.974, recall: 0.974, position: 0.948, sentiment: 0.65, stance: 0.675 },
  fr: { precision: 0.991, recall: 0.991, position: 0.991, sentiment: 0.55, stance: 0.575 },
  ja: { precision: 0.937, recall: 1, position: 0.971, sentiment: 0.666, stance: 0.743 },
  zh: { precision: 0.928, recall: 0.945, position: 0.881, sentiment: 0.727, stance: 0.727 },
  all: { precision: 0.962, recall: 0.974, position: 0.951, sentiment: 0.643, stance: 0.717 },
};
const MIN = { answers: 600, languages: 6, perLanguage: 80 } as const;
const KINDS = ["word-as-brand", "comparison", "neighbour", "tone-implicit"] as const;

type Stance = "recommended" | "mentioned" | "warned";
type Half = "tune" | "test";

interface CorpusProject {
  brand: BrandSpec;
  competitors: BrandSpec[];
  exclusions?: string[];
}

interface CorpusAnswer {
  id: string;
  project: string;
  language: string;
  engine_style: string;
  kinds: string[];
  ambiguous?: boolean;
  prompt: string;
  text: string;
  citations: SourceCitation[];
  expected: {
    mentions: string[];
    positions: Record<string, number>;
    brand_cited: boolean;
    sentiment?: Tone;
    stance?: Stance;
  };
}

interface CorpusFile {
  projects: Record<string, CorpusProject>;
  answers: CorpusAnswer[];
}

const dir = resolve(import.meta.dirname, "../fixtures/heldout");
const split = JSON.parse(readFileSync(resolve(dir, "split.json"), "utf8")) as { tune: string[]; test: string[] };
const halfOf = new Map<string, Half>([
  ...split.tune.map((id) => [id, "tune"] as const),
  ...split.test.map((id) => [id, "test"] as const),
]);

interface Loaded {
  answer: CorpusAnswer;
  compiled: ReturnType<typeof compileProject>;
  half: Half;
}

const loaded: Loaded[] = [];
const unsplit: string[] = [];
for (const name of readdirSync(dir)
  .filter((file) => file.endsWith(".json") && file !== "split.json")
  .sort()) {
  const corpus = JSON.parse(readFileSync(resolve(dir, name), "utf8")) as CorpusFile;
  const compiled = new Map<string, ReturnType<typeof compileProject>>();
  for (const answer of corpus.answers) {
    const project = corpus.projects[answer.project];
    if (project === undefined) throw new Error(`${name}: ${answer.id} names unknown project ${answer.project}`);
    // A project is measured in its language, as the product's projects are.
    const key = `${answer.project}\u0000${answer.language}`;
    let one = compiled.get(key);
    if (one === undefined) {
      one = compileProject({ ...(project as MeasuredProject), language: answer.language });
      compiled.set(key, one);
    }
    const half = halfOf.get(answer.id);
    if (half === undefined) unsplit.push(answer.id);
    else loaded.push({ answer, compiled: one, half });
  }
}

type Judge = (answer: CorpusAnswer, names: string[]) => MeasureOptions;

/** Scores the answers of one half, with a judge's rulings where the rules are unsure, if given. */
function score(half: Half, judge?: Judge) {
  const byLanguage = new Map<string, Tally>();
  const misses: string[] = [];
  let asked = 0;
  let ambiguous = 0;
  for (const { answer, compiled, half: its } of loaded) {
    if (its !== half) continue;
    if (answer.ambiguous === true) {
      ambiguous++;
      continue;
    }
    const input = { text: answer.text, citations: answer.citations, prompt: answer.prompt };
    let measure = measureAnswer(compiled, input);
    if (judge !== undefined) {
      const names = ambiguousNames(measure);
      if (names.length > 0) {
        asked++;
        measure = measureAnswer(compiled, input, judge(answer, names));
      }
    }
    const tally = byLanguage.get(answer.language) ?? new Tally();
    byLanguage.set(answer.language, tally);
    tally.answers++;
    const all = [measure.brand, ...measure.competitors];
    const found = new Set(all.filter((b) => b.mentioned).map((b) => b.name));
    const expected = new Set(answer.expected.mentions);
    for (const brand of found) {
      if (expected.has(brand)) tally.tp++;
      else {
        tally.fp++;
        misses.push(`${answer.id}: found ${brand}, not labelled`);
      }
    }
    for (const brand of expected) {
      if (!found.has(brand)) {
        tally.fn++;
        misses.push(`${answer.id}: missed ${brand}`);
      }
    }
    for (const [brand, position] of Object.entries(answer.expected.positions)) {
      tally.positionsTotal++;
      const got = all.find((b) => b.name === brand)?.position;
      if (got === position) tally.positionsRight++;
      else misses.push(`${answer.id}: ${brand} ranked ${got}, labelled ${position}`);
    }
    if (measure.brand_cited === answer.expected.brand_cited) tally.citedRight++;
    else misses.push(`${answer.id}: brand_cited ${measure.brand_cited}, labelled ${answer.expected.brand_cited}`);
    const tone = answer.expected.sentiment;
    if (tone !== undefined) {
      tally.toneTotal++;
      const got = toneOf(measure.brand.sentiment);
      if (got === tone) tally.toneRight++;
      else misses.push(`${answer.id}: tone ${got} (${measure.brand.sentiment}), labelled ${tone}`);
    }
    const stance = answer.expected.stance;
    if (stance !== undefined) {
      tally.stanceTotal++;
      if (measure.brand.stance === stance) tally.stanceRight++;
      else misses.push(`${answer.id}: stance ${String(measure.brand.stance)}, labelled ${stance}`);
    }
  }
  const overall = new Tally();
  for (const tally of byLanguage.values()) overall.add(tally);
  return { byLanguage, overall, misses, asked, ambiguous };
}

/** A judge that knows the labels: the best any judge could do (an upper bound). */
const oracle: Judge = (answer, names) => {
  const label = answer.expected.sentiment;
  return {
    verdicts: new Map(names.map((name) => [name, answer.expected.mentions.includes(name)])),
    ...(label === undefined ? {} : { tone: label === "positive" ? 0.6 : label === "negative" ? -0.6 : 0 }),
  };
};

/** A judge that answers at random (a lower bound), from a fixed seed so the figures repeat. */
function randomJudge(seed: number): Judge {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return (_answer, names) => ({
    verdicts: new Map(names.map((name) => [name, next() < 0.5])),
    tone: Math.round((next() * 2 - 1) * 100) / 100,
  });
}

function row(label: string, t: Tally): string {
  return [
    label.padEnd(10),
    String(t.answers).padStart(7),
    t.precision.toFixed(3).padStart(9),
    t.recall.toFixed(3).padStart(7),
    t.position.toFixed(3).padStart(8),
    t.sentiment.toFixed(3).padStart(9),
    t.stance.toFixed(3).padStart(7),
    t.cited.toFixed(3).padStart(6),
  ].join(" ");
}

function table(title: string, result: ReturnType<typeof score>): string[] {
  const languages = [...result.byLanguage.entries()].sort(([a], [b]) => a.localeCompare(b));
  return [
    `${title}: ${result.overall.answers} answers (${result.ambiguous} ambiguous left out)`,
    `${"language".padEnd(10)} answers precision  recall position sentiment  stance  cited`,
    ...languages.map(([language, tally]) => row(language, tally)),
    row("all", result.overall),
  ];
}

const tune = score("tune");
const test = score("test");

describe("measurement accuracy on the held-out corpus (issue 25)", () => {
  it("has every answer in one half, enough answers, languages and kinds", () => {
    expect(unsplit).toEqual([]);
    const languages = new Map<string, number>();
    for (const { answer } of loaded) languages.set(answer.language, (languages.get(answer.language) ?? 0) + 1);
    expect(loaded.length).toBeGreaterThanOrEqual(MIN.answers);
    expect(languages.size).toBeGreaterThanOrEqual(MIN.languages);
    for (const count of languages.values()) expect(count).toBeGreaterThanOrEqual(MIN.perLanguage);
    const kinds = new Set(loaded.flatMap(({ answer }) => answer.kinds));
    expect(KINDS.filter((kind) => !kinds.has(kind))).toEqual([]);
    expect(new Set(loaded.map(({ answer }) => answer.engine_style)).size).toBeGreaterThanOrEqual(6);
  });

  it("prints both halves, the goals met and the judge's bounds, and holds the floor on the test half", () => {
    const upper = score("test", oracle);
    const lower = score("test", randomJudge(25));
    const show = process.env.SIGHTLINE_SHOW_TEST_MISSES === "1";
    console.log(
      [
        `goals on the test half, per language and overall: ${JSON.stringify(GOALS)}`,
        ...table("tuning half", tune),
        ...table("TEST half", test),
        `judge on the test half: asked for ${upper.asked} of ${upper.overall.answers} answers (the rules' unsure names)`,
        ...table("TEST half, judge answering from the labels (upper bound)", upper),
        ...table("TEST half, judge answering at random (lower bound)", lower),
        `tuning half: ${tune.misses.length} misses${tune.misses.length > 80 ? " (first 80)" : ""}:`,
        ...tune.misses.slice(0, 80),
        `test half: ${test.misses.length} misses${show ? ":" : " (not shown: SIGHTLINE_SHOW_TEST_MISSES=1 to check a label)"}`,
        ...(show ? test.misses : []),
      ].join("\n"),
    );
    const short: string[] = [];
    const below: string[] = [];
    for (const [language, tally] of [...test.byLanguage.entries(), ["all", test.overall] as const]) {
      for (const metric of Object.keys(GOALS) as Metric[]) {
        const value = Math.round(tally[metric] * 1000) / 1000;
        if (value < GOALS[metric]) short.push(`${language} ${metric} ${value.toFixed(3)} < ${GOALS[metric]}`);
        const floor = FLOOR[language]?.[metric];
        if (floor === undefined || value < floor)
          below.push(`${language} ${metric} ${value.toFixed(3)} < floor ${floor}`);
      }
    }
    console.log(
      short.length === 0
        ? "the test half meets every goal of issue 25"
        : `the test half is short of issue 25's goals on ${short.length} figures: ${short.join("; ")}`,
    );
    expect(below).toEqual([]);
  });

  it("detects citations of the brand's domains exactly on both halves", () => {
    expect(tune.overall.cited).toBe(1);
    expect(test.overall.cited).toBe(1);
  });
});
