import { randomInt } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";

/**
 * Splits the held-out corpus (test/fixtures/heldout) once, at random, into a tuning half and a
 * test half, per language (issue 25). It refuses to run when split.json exists: the split is drawn
 * once and never again, so that the test half stays unseen by the rules' tuning.
 */
const dir = resolve(import.meta.dirname, "../test/fixtures/heldout");
const target = resolve(dir, "split.json");
if (existsSync(target)) {
  console.error("split.json exists: the corpus is split once and never again");
  process.exit(1);
}
const byLanguage = new Map<string, string[]>();
for (const file of readdirSync(dir).filter((name) => name.endsWith(".json"))) {
  const corpus = JSON.parse(readFileSync(resolve(dir, file), "utf8")) as {
    answers: { id: string; language: string }[];
  };
  for (const answer of corpus.answers) {
    const ids = byLanguage.get(answer.language) ?? [];
    ids.push(answer.id);
    byLanguage.set(answer.language, ids);
  }
}
const tune: string[] = [];
const test: string[] = [];
for (const ids of byLanguage.values()) {
  // Fisher–Yates with the operating system's randomness; the first half tunes, the rest tests.
  for (let i = ids.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [ids[i], ids[j]] = [ids[j] as string, ids[i] as string];
  }
  const half = Math.floor(ids.length / 2);
  tune.push(...ids.slice(0, half));
  test.push(...ids.slice(half));
}
tune.sort();
test.sort();
writeFileSync(
  target,
  `${JSON.stringify({ drawn: new Date().toISOString(), method: "crypto.randomInt Fisher-Yates per language", tune, test }, null, 1)}\n`,
);
console.log(`split ${tune.length} tuning and ${test.length} test answers`);
