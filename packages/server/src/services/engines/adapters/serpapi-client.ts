import type { SourceCitation } from "../../measurement/types.ts";
import type { CredentialedSettings } from "../descriptor.ts";

/**
 * One block of an answer as SerpApi structures it: AI Overviews, AI Mode and Copilot answers all
 * come as `text_blocks` of paragraphs, headings, lists (whose items may nest), code and tables.
 */
export interface TextBlock {
  type?: string;
  snippet?: string;
  title?: string;
  list?: TextBlock[];
  text_blocks?: TextBlock[];
  code?: string;
  language?: string;
  table?: unknown;
}

function renderTable(table: unknown): string[] {
  if (!Array.isArray(table)) return [];
  const rows = table.filter(
    (row): row is unknown[] => Array.isArray(row) && row.every((cell) => typeof cell === "string"),
  );
  return rows.map((row) => `| ${row.join(" | ")} |`);
}

/** The answer's text, one line per paragraph, heading or list item, as markdown. */
export function renderTextBlocks(blocks: readonly TextBlock[], depth = 0): string[] {
  const lines: string[] = [];
  for (const block of blocks) {
    const snippet = block.snippet ?? "";
    if (block.type === "heading") lines.push(`## ${snippet}`);
    else if (block.type === "list") {
      for (const item of block.list ?? []) {
        const head = [item.title, item.snippet].filter(Boolean).join(": ");
        lines.push(`${"  ".repeat(depth)}- ${head}`);
        if (item.list !== undefined || item.text_blocks !== undefined) {
          lines.push(
            ...renderTextBlocks(
              [...(item.list === undefined ? [] : [{ type: "list", list: item.list }]), ...(item.text_blocks ?? [])],
              depth + 1,
            ),
          );
        }
      }
    } else if (block.type === "code" || block.type === "code_block") {
      lines.push(`\`\`\`${block.language ?? ""}`, block.code ?? snippet, "```");
    } else if (block.type === "table" && block.table !== undefined) {
      lines.push(...renderTable(block.table));
    } else if (snippet !== "") lines.push(snippet);
    if (block.text_blocks !== undefined && block.type !== "list")
      lines.push(...renderTextBlocks(block.text_blocks, depth));
  }
  return lines;
}

/** SerpApi's `references` (`{ title, link, source, index }`) as citations, those without a link dropped. */
export function referenceCitations(references: unknown): SourceCitation[] {
  if (!Array.isArray(references)) return [];
  const citations: SourceCitation[] = [];
  for (const reference of references as { link?: unknown; title?: unknown }[]) {
    if (typeof reference?.link !== "string" || citations.some((c) => c.url === reference.link)) continue;
    citations.push({ url: reference.link, title: typeof reference.title === "string" ? reference.title : null });
  }
  return citations;
}

/**
 * `GET /search.json` with the account's key, one attempt. A vendor error is thrown with its
 * `status` and `headers` (for `toFailure`), its text taken from SerpApi's `{ error }` body; a body
 * that is not JSON throws a SyntaxError.
 */
export class SerpApiClient {
  readonly #apiKey: string;
  readonly #baseUrl: string;
  readonly #timeoutMs: number;

  constructor(settings: CredentialedSettings, timeoutMs: number) {
    this.#apiKey = settings.apiKey;
    this.#baseUrl = (settings.baseUrl ?? "https://serpapi.com").replace(/\/+$/, "");
    this.#timeoutMs = timeoutMs;
  }

  async get(params: Record<string, string>, signal: AbortSignal): Promise<unknown> {
    const url = new URL(`${this.#baseUrl}/search.json`);
    for (const [key, value] of Object.entries({ ...params, api_key: this.#apiKey })) url.searchParams.set(key, value);
    const response = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(this.#timeoutMs)]) });
    const body = await response.text();
    if (!response.ok) {
      let message = body.slice(0, 300);
      try {
        message = (JSON.parse(body) as { error?: string }).error ?? message;
      } catch {
        // not JSON
      }
      throw Object.assign(new Error(message), { status: response.status, headers: response.headers });
    }
    return JSON.parse(body);
  }
}

/** SerpApi's localisation parameters: `gl` (country, lower case) and `hl` (the language without its region). */
export function googleLocale(country: string | null, language: string | null): Record<string, string> {
  return {
    ...(country === null ? {} : { gl: country.toLowerCase() }),
    ...(language === null ? {} : { hl: language.split("-")[0] ?? language }),
  };
}
