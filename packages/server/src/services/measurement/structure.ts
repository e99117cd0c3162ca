/** Lines of an answer, with which of them are list items (numbered, bulleted, or table rows). */
export interface Line {
  start: number;
  end: number;
  /** Ordinal among list items, or null for ordinary lines. */
  item: number | null;
}

const LIST_ITEM = /^\s*(?:#{1,6}\s*)?(?:\*\*|__)?\s*(?:\d{1,3}[.)]|[-*•+])\s+/u;
const TABLE_ROW = /^\s*\|/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/;

export function splitLines(text: string): Line[] {
  const raw: { start: number; end: number; text: string }[] = [];
  let start = 0;
  for (const part of text.split("\n")) {
    raw.push({ start, end: start + part.length, text: part });
    start += part.length + 1;
  }
  const lines: Line[] = [];
  let items = 0;
  raw.forEach((line, index) => {
    const next = raw[index + 1];
    const isHeaderRow = TABLE_ROW.test(line.text) && next !== undefined && TABLE_SEPARATOR.test(next.text);
    const isTableRow = TABLE_ROW.test(line.text) && !TABLE_SEPARATOR.test(line.text) && !isHeaderRow;
    const isItem = isTableRow || LIST_ITEM.test(line.text);
    lines.push({ start: line.start, end: line.end, item: isItem ? items++ : null });
  });
  return lines;
}

export function lineAt(lines: Line[], offset: number): Line | undefined {
  let low = 0;
  let high = lines.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const line = lines[mid];
    if (line === undefined) return undefined;
    if (offset < line.start) high = mid - 1;
    else if (offset > line.end) low = mid + 1;
    else return line;
  }
  return undefined;
}
