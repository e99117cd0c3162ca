import { readFileSync } from "node:fs";

/** Reads an RFC 4180 file (quoted fields, doubled quotes, CRLF) into its header and rows. */
export function readCsv(path: string): { header: string[]; rows: string[][] } {
  const text = readFileSync(path, "utf8");
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i++;
    } else field += c;
  }
  if (field !== "" || record.length > 0) throw new Error(`${path} does not end with CRLF`);
  const [header = [], ...rows] = records;
  return { header, rows };
}
