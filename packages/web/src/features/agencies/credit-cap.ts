/** A cap as typed: empty is no cap (the pool only); otherwise a whole number of credits, 0 or more. */
export function parseCap(text: string): { cap: number | null } | { problem: string } {
  const trimmed = text.trim().replace(/[\s,._']/g, "");
  if (trimmed === "") return { cap: null };
  if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(Number(trimmed)) || Number(trimmed) > 100_000_000) {
    return { problem: "Type a whole number of credits, such as 500, or leave it empty for no cap." };
  }
  return { cap: Number(trimmed) };
}
