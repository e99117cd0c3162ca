/**
 * Text and names compared case- and accent-insensitively: NFKD, combining marks dropped,
 * lower-cased. Decomposition can change lengths, so offsets are only compared within one
 * normalised text, never mapped back.
 */
export function fold(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A folded name as a pattern that matches it as a whole token, not inside a longer word. */
export function namePattern(name: string): string {
  const parts = fold(name).trim().split(/\s+/).map(escapeRegex);
  return `(?<![\\p{L}\\p{N}])${parts.join("\\s+")}(?![\\p{L}\\p{N}])`;
}

const URL_OR_EMAIL = /https?:\/\/[^\s)>\]"']+|[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/gu;

/** Blanks out URLs with a scheme and e-mail addresses (same length), so names inside them do not count. */
export function maskLinks(folded: string): string {
  return folded.replace(URL_OR_EMAIL, (match) => " ".repeat(match.length));
}
