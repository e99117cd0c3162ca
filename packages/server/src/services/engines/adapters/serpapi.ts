import type { CredentialedSettings } from "../descriptor.ts";
import { toFailure } from "../errors.ts";
import {
  type EngineAdapter,
  type EngineOutcome,
  type EngineQuery,
  type EngineReach,
  failure,
  withPreamble,
} from "../types.ts";
import { usageOf } from "../usage.ts";
import { googleLocale, referenceCitations, renderTextBlocks, SerpApiClient, type TextBlock } from "./serpapi-client.ts";

interface AiOverview {
  page_token?: string;
  text_blocks?: TextBlock[];
  references?: unknown;
  error?: string;
}

interface SearchBody {
  search_metadata?: unknown;
  ai_overview?: AiOverview;
}

/**
 * `google_ai_overview`: Google's AI Overview for the prompt, through SerpApi. When the search
 * results carry only a `page_token`, the overview is fetched with SerpApi's AI Overview engine.
 * A search with no AI Overview is a valid answer: the brand is simply not shown.
 */
export class SerpApiAdapter implements EngineAdapter {
  readonly name = "google_ai_overview";
  /** A Google search: a persona is typed before the query, the country is `gl`, and a search has no follow-up. */
  readonly reach: EngineReach = { persona: "preamble", country: "gl", conversation: "none" };
  readonly #client: SerpApiClient;

  constructor(settings: CredentialedSettings, timeoutMs: number) {
    this.#client = new SerpApiClient(settings, timeoutMs);
  }

  async ask(query: EngineQuery, signal: AbortSignal): Promise<EngineOutcome> {
    let overview: AiOverview | undefined;
    // SerpApi bills per search: the Google search, and the AI Overview page when it is fetched apart.
    let searchCalls = 1;
    try {
      const search = (await this.#client.get(
        { engine: "google", q: withPreamble(query), ...googleLocale(query.country, query.language) },
        signal,
      )) as SearchBody | null;
      // Every SerpApi answer has search_metadata; without it this is not a SerpApi answer at all.
      if (typeof search !== "object" || search === null || search.search_metadata === undefined) {
        return failure(`${this.name} answered an unreadable body`);
      }
      overview = search.ai_overview;
      if (overview?.page_token !== undefined && overview.text_blocks === undefined) {
        searchCalls++;
        const page = (await this.#client.get(
          { engine: "google_ai_overview", page_token: overview.page_token },
          signal,
        )) as SearchBody | null;
        overview = page?.ai_overview;
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
      return {
        ok: true,
        answer: {
          text: "",
          model: "google-ai-overview (none shown)",
          citations: [],
          searches: [],
          usage: usageOf({ searchCalls }),
        },
      };
    }
    return {
      ok: true,
      answer: {
        text: renderTextBlocks(overview.text_blocks).join("\n"),
        model: "google-ai-overview",
        citations: referenceCitations(overview.references),
        searches: [],
        usage: usageOf({ searchCalls }),
      },
    };
  }
}
