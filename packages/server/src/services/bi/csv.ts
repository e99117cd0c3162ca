/**
 * One CSV line (RFC 4180): fields with a comma, a quote or a line break are quoted, quotes doubled,
 * CRLF at the end. Values are written as they are, with no spreadsheet-formula escaping: the files
 * are for BI tools, which would show an added quote as part of the value (docs/bi.md).
 */
export function csvRow(values: readonly unknown[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
