import { classifyCitations, linksInText } from "./citations.ts";
import { confidences, promptEvidence } from "./evidence.ts";
import { BrandMatcher, type Occurrence } from "./mentions.ts";
import { fold } from "./normalize.ts";
import { SCORE_VERSION, visibilityScore } from "./score.ts";
import { lineAt, splitLines } from "./structure.ts";
import { asksForAdvice, brandTone, detectLanguage } from "./tone.ts";
import type { AnswerInput, AnswerMeasure, BrandMeasure, MeasuredProject, MeasureOptions } from "./types.ts";

/** Confidences in [low, high) are ambiguous: a judge, when configured, settles those names. */
export const AMBIGUOUS = { low: 0.2, high: 0.8 } as const;

/** A brand counts as mentioned when its best occurrence reaches this confidence. */
const MENTIONED = 0.5;
/** Once a brand is established in an answer, its other occurrences count with this much less evidence. */
const ESTABLISHED_BONUS = 0.2;

/** The brand and competitor names whose best occurrence the rules are unsure about. */
export function ambiguousNames(measure: AnswerMeasure): string[] {
  return [measure.brand, ...measure.competitors]
    .filter((m) => m.confidence !== undefined && m.confidence >= AMBIGUOUS.low && m.confidence < AMBIGUOUS.high)
    .map((m) => m.name);
}

interface FirstSeen {
  offset: number;
  item: number | null;
  offsetInItem: number;
}

/**
 * Ranks the mentioned brands: by list order when at least two of them appear in list items (those
 * first, by the first item each appears in), the others after by first appearance; otherwise all
 * by first appearance.
 */
function rank(first: Map<number, FirstSeen>): Map<number, number> {
  const entries = [...first.entries()];
  const listed = entries.filter(([, seen]) => seen.item !== null);
  const byOffset = (a: [number, FirstSeen], b: [number, FirstSeen]) => a[1].offset - b[1].offset;
  let ordered: [number, FirstSeen][];
  if (listed.length >= 2) {
    listed.sort((a, b) => (a[1].item ?? 0) - (b[1].item ?? 0) || a[1].offsetInItem - b[1].offsetInItem);
    const rest = entries.filter(([, seen]) => seen.item === null).sort(byOffset);
    ordered = [...listed, ...rest];
  } else {
    ordered = entries.sort(byOffset);
  }
  return new Map(ordered.map(([brand], index) => [brand, index + 1]));
}

/**
 * Measures one answer for a project (DESIGN.md §3, §7). Pure: no I/O, no clock. The matcher is
 * built once per project with `compileProject` and reused for every answer of an analysis.
 * `options.verdicts` and `options.tone` are a judge's rulings; where given they replace the rules'.
 */
export function measureAnswer(
  compiled: CompiledProject,
  answer: AnswerInput,
  options: MeasureOptions = {},
): AnswerMeasure {
  const { project, matcher } = compiled;
  const brands = [project.brand, ...project.competitors];
  const prepared = matcher.prepare(answer.text);
  const language = detectLanguage(prepared.folded, project.language ?? null);
  const { found, idiomatic } = matcher.occurrences(prepared, language);
  const lines = splitLines(prepared.text);
  const asked = promptEvidence(matcher, answer.prompt, language);
  const confidence = confidences(prepared, found, lines, {
    ...asked,
    idiomatic,
    language,
  });

  // Best confidence per brand decides whether it is mentioned (or the judge, where it ruled).
  const best = new Map<number, number>();
  found.forEach((o, i) => {
    best.set(o.brand, Math.max(best.get(o.brand) ?? 0, confidence[i] ?? 0));
  });
  const mentioned = (index: number): boolean => {
    const verdict = options.verdicts?.get(brands[index]?.name ?? "");
    if (verdict !== undefined) return verdict && best.has(index);
    return (best.get(index) ?? 0) >= MENTIONED;
  };
  const counted: Occurrence[] = found.filter((o, i) => {
    if (!mentioned(o.brand)) return false;
    if (options.verdicts?.get(brands[o.brand]?.name ?? "") === true) return true;
    return (confidence[i] ?? 0) + ESTABLISHED_BONUS >= MENTIONED;
  });

  // First sighting of each brand anywhere, and in the first list item it appears in.
  const first = new Map<number, FirstSeen>();
  const counts = new Map<number, number>();
  for (const occurrence of counted) {
    counts.set(occurrence.brand, (counts.get(occurrence.brand) ?? 0) + 1);
    const line = lineAt(lines, occurrence.start);
    const seen = first.get(occurrence.brand);
    const item = line?.item ?? null;
    if (seen === undefined) {
      first.set(occurrence.brand, {
        offset: occurrence.start,
        item,
        offsetInItem: occurrence.start - (line?.start ?? 0),
      });
    } else if (seen.item === null && item !== null) {
      seen.item = item;
      seen.offsetInItem = occurrence.start - (line?.start ?? 0);
    }
  }
  const positions = rank(first);
  const measureOf = (index: number, name: string): BrandMeasure => ({
    name,
    mentioned: counts.has(index),
    position: positions.get(index) ?? null,
    mentions: counts.get(index) ?? 0,
    confidence: best.get(index) ?? 0,
  });

  const own = measureOf(0, project.brand.name);
  const brandOccurrences = counted.filter((o) => o.brand === 0);
  const others = counted.filter((o) => o.brand !== 0);
  const tone = own.mentioned
    ? brandTone(
        prepared.folded,
        brandOccurrences,
        others,
        language,
        asksForAdvice(answer.prompt === undefined ? undefined : fold(answer.prompt)),
        asked.named.has(0),
      )
    : null;
  const sentiment = tone === null ? null : (options.tone ?? tone.sentiment);

  const fromText = linksInText(answer.text);
  const citations = classifyCitations(
    [...answer.citations, ...fromText],
    project.brand,
    project.competitors,
    project.citation_categories,
  );
  const brandCited = citations.some((c) => c.brand);
  const brand = { ...own, sentiment, stance: tone === null ? null : tone.stance };
  return {
    brand,
    competitors: project.competitors.map((competitor, i) => measureOf(i + 1, competitor.name)),
    citations,
    citation_source: answer.citations.length > 0 ? "engine" : fromText.length > 0 ? "text" : "none",
    brand_cited: brandCited,
    score: visibilityScore({ mentioned: brand.mentioned, position: brand.position, sentiment, brandCited }),
    score_version: SCORE_VERSION,
  };
}

export interface CompiledProject {
  project: MeasuredProject;
  matcher: BrandMatcher;
}

export function compileProject(project: MeasuredProject): CompiledProject {
  return { project, matcher: new BrandMatcher([project.brand, ...project.competitors], project.exclusions ?? []) };
}
