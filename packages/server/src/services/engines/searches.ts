/** At most this many searches are kept per answer, each at most `MAX_SEARCH_LENGTH` characters. */
const MAX_SEARCHES = 20;
const MAX_SEARCH_LENGTH = 300;

/**
 * The web searches an engine ran, as stored: strings only, whitespace collapsed and trimmed, cut to
 * `MAX_SEARCH_LENGTH`, empty ones dropped, duplicates (ignoring case) dropped keeping the first, in
 * the order the vendor gave them, at most `MAX_SEARCHES`. Vendors' fields are untrusted input.
 */
export function cleanSearches(raw: readonly unknown[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const value of raw) {
    if (typeof value !== "string") continue;
    const search = value.replace(/\s+/g, " ").trim().slice(0, MAX_SEARCH_LENGTH).trim();
    const key = search.toLowerCase();
    if (search === "" || seen.has(key)) continue;
    seen.add(key);
    out.push(search);
    if (out.length === MAX_SEARCHES) break;
  }
  return out;
}
