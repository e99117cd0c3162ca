/**
 * The per-answer visibility score (0–100):
 *
 *   100 × (0.50 × mentioned + 0.25 × 1/position + 0.15 × (sentiment + 1)/2 + 0.10 × brand cited)
 *
 * Being named is half the score; being named first is worth a quarter (second half of that, third
 * a third…); tone adds up to 15 points (neutral 7.5) and a citation of the brand's site 10.
 * An answer that only cites the brand's site scores 10. Aggregates average the answers' scores.
 * Any change to this formula, or to how its inputs are read from an answer, is a new version:
 * stored results keep the version they were scored with and are never re-scored silently.
 *
 * Versions: 1, the first rules; 2 (issue 13), the same formula over measurement that needs
 * evidence for ordinary-word names, normalises typography, reads CJK, and scores tone and stance
 * per language (DESIGN.md §7); 3 (issue 25), ordinary words from full dictionaries with
 * frequencies per language, names inside longer CJK words dropped, subject, comparison and German
 * article cues, and tone from verdict labels, warnings, reported complaints and whole answers
 * about one brand (docs/adr/0034-held-out-measurement.md).
 */
export const SCORE_VERSION = "3";

export function visibilityScore(input: {
  mentioned: boolean;
  position: number | null;
  sentiment: number | null;
  brandCited: boolean;
}): number {
  const mentioned = input.mentioned ? 1 : 0;
  const position = input.mentioned && input.position !== null ? 1 / input.position : 0;
  const tone = input.mentioned ? ((input.sentiment ?? 0) + 1) / 2 : 0;
  const cited = input.brandCited ? 1 : 0;
  const score = 100 * (0.5 * mentioned + 0.25 * position + 0.15 * tone + 0.1 * cited);
  return Math.round(score * 10) / 10;
}
