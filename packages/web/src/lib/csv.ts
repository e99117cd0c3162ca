/** CSV files made in the browser: the figures behind a chart or a table, for a spreadsheet. */

export type CsvCell = string | number | boolean | null | undefined;

function cell(value: CsvCell): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  // Quoted when needed; a leading =, +, - or @ would run as a formula in a spreadsheet.
  const safe = /^[=+\-@\t\r]/.test(text) && typeof value === "string" ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(rows: readonly (readonly CsvCell[])[]): string {
  return `${rows.map((row) => row.map(cell).join(",")).join("\r\n")}\r\n`;
}

/** Saves a blob under a file name, through a temporary link. */
export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadCsv(rows: readonly (readonly CsvCell[])[], filename: string): void {
  // The byte-order mark makes spreadsheet programs read the file as UTF-8.
  downloadBlob(new Blob(["\uFEFF", toCsv(rows)], { type: "text/csv;charset=utf-8" }), filename);
}

/** "Acme CRM visibility 2026-11-01" → "acme-crm-visibility-2026-11-01". */
export function fileSlug(...parts: string[]): string {
  return parts
    .join(" ")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 80);
}
