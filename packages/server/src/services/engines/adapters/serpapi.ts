import type { SourceCitation } from "../../measurement/types.ts";
import type { CredentialedSettings } from "../descriptor.ts";
import { toFailure } from "../errors.ts";
import { type EngineAdapter, type EngineOutcome, type EngineQuery, failure } from "../types.ts";

interface TextBlock {
  type?: string;
  snippet?: string;
  title?: string;
  list?: TextBlock[];
  text_blocks?: TextBlock[];
}

interface AiOverview {
  page_token?: string;
  text_blocks?: TextBlock[];
  references?: { title?: string; link?: string; source?: string }[];
  error?: string;
}

function render(blocks: TextBlock[], depth = 0): string[] {
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
            ...render(
              [...(item.list === undefined ? [] : [{ type: "list", list: item.list }]), ...(item.text_blocks ?? [])],
              depth + 1,
            ),
          );
        }
      }
    } else if (snippet !== "") lines.push(snippet);
    if (block.text_blocks !== undefined && block.type !== "list") lines.push(...render(block.text_blocks, depth));
  }
  return lines;
}

/**
 * `google_ai_overview`: Google's AI Overview for the prompt, through SerpApi. When the search
 * results carry only a `page_token`, the overview is fetched with SerpApi's AI Overview engine.
 * A search with no AI Overview is a valid answer: the brand is simply not shown.
 */
export class SerpApiAdapter implements EngineAdapter {
  readonly name = "google_ai_overview";
  readonly #apiKey: string;
  readonly #baseUrl: string;
  readonly #timeoutMs: number;

  constructor(settings: CredentialedSettings, timeoutMs: number) {
    this.#apiKey = settings.apiKey;
    this.#baseUrl = (settings.baseUrl ?? "https://serpapi.com").replace(/\/+$/, "");
    this.#timeoutMs = timeoutMs;
  }

  async #get(
    params: Record<string, string>,
    signal: AbortSignal,
  ): Promise<{ search_metadata?: unknown; ai_overview?: AiOverview }> {
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
    return JSON.parse(body) as { search_metadata?: unknown; ai_overview?: AiOverview };
  }

  async ask(query: EngineQuery, signal: AbortSignal): Promise<EngineOutcome> {
    let overview: AiOverview | undefined;
    try {
      const search = await this.#get(
        {
          engine: "google",
          q: query.prompt,
          ...(query.country === null ? {} : { gl: query.country.toLowerCase() }),
          ...(query.language === null ? {} : { hl: query.language.split("-")[0] ?? query.language }),
        },
        signal,
      );
      // Every SerpApi answer has search_metadata; without it this is not a SerpApi answer at all.
      if (typeof search !== "object" || search === null || search.search_metadata === undefined) {
        return failure(`${this.name} answered an unreadable body`);
      }
      overview = search.ai_overview;
      if (overview?.page_token !== undefined && overview.text_blocks === undefined) {
        overview = (await this.#get({ engine: "google_ai_overview", page_token: overview.page_token }, signal))
          .ai_overview;
      }
    } catch (error) {
      if (error instanceof SyntaxError) return failure(`${this.name} answered an unreadable body`);
      return toFailure(this.name, error, signal.aborted);
    }
    // An overview that failed to load says nothing about the brand: a failure to retry, not "not shown".
    if (overview?.error !== undefined && overview.text_blocks === undefined) {
      return failure(`${this.name}: ${overview.error}`, { retryable: true });
    }
    if (overview === undefined || overview.text_blocks === undefined) {
      return { ok: true, answer: { text: "", model: "google-ai-overview (none shown)", citations: [], searches: [] } };
    }
    const citations: SourceCitation[] = (overview.references ?? [])
      .filter((r): r is { link: string; title?: string } => typeof r.link === "string")
      .map((r) => ({ url: r.link, title: r.title ?? null }));
    return {
      ok: true,
      answer: { text: render(overview.text_blocks).join("\n"), model: "google-ai-overview", citations, searches: [] },
    };
  }
}
