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

export interface SerpApiAnswerFlavour {
  /** The engine's name: `google_ai_mode` or `copilot`. */
  name: string;
  /** SerpApi's `engine` parameter: `google_ai_mode` or `bing_copilot`. */
  engine: string;
  /** Whether SerpApi takes `gl` and `hl` for it (AI Mode does; its Copilot API takes only `q`). */
  localized: boolean;
  /** The model reported for its answers: neither product names one. */
  model: string;
}

/** What AI Mode and Copilot answer: the answer itself at the top level, not inside a results page. */
interface AnswerBody {
  search_metadata?: unknown;
  /** Copilot: the answer's title line. */
  header?: unknown;
  text_blocks?: TextBlock[];
  references?: unknown;
  /** AI Mode: the whole answer as markdown. */
  reconstructed_markdown?: unknown;
  /** A search that produced no answer ("Google hasn't returned any results for this query."). */
  error?: unknown;
}

function answerText(body: AnswerBody): string {
  const lines = Array.isArray(body.text_blocks) ? renderTextBlocks(body.text_blocks) : [];
  if (lines.join("").trim() === "" && typeof body.reconstructed_markdown === "string") {
    return body.reconstructed_markdown.trim();
  }
  if (typeof body.header === "string" && body.header.trim() !== "" && lines.length > 0) {
    lines.unshift(`## ${body.header.trim()}`);
  }
  return lines.join("\n").trim();
}

/**
 * The answer engines SerpApi scrapes whole, as a person sees them on the product's own page:
 * `google_ai_mode` (Google AI Mode) and `copilot` (Microsoft Copilot in Bing). Unlike an AI
 * Overview, these always answer: a search without an answer is a failure, not "not shown".
 * Neither reports the searches it ran.
 */
export class SerpApiAnswerAdapter implements EngineAdapter {
  readonly name: string;
  readonly #client: SerpApiClient;
  readonly #flavour: SerpApiAnswerFlavour;
  readonly reach: EngineReach;

  constructor(settings: CredentialedSettings, timeoutMs: number, flavour: SerpApiAnswerFlavour) {
    this.name = flavour.name;
    // A page a person reads: a persona is what they would type first, and no follow-up is scraped.
    this.reach = { persona: "preamble", country: flavour.localized ? "gl" : null, conversation: "none" };
    this.#flavour = flavour;
    this.#client = new SerpApiClient(settings, timeoutMs);
  }

  async ask(query: EngineQuery, signal: AbortSignal): Promise<EngineOutcome> {
    let body: AnswerBody | null;
    try {
      body = (await this.#client.get(
        {
          engine: this.#flavour.engine,
          q: withPreamble(query),
          ...(this.#flavour.localized ? googleLocale(query.country, query.language) : {}),
        },
        signal,
      )) as AnswerBody | null;
    } catch (error) {
      if (error instanceof SyntaxError) return failure(`${this.name} answered an unreadable body`);
      return toFailure(this.name, error, signal.aborted);
    }
    // Every SerpApi answer has search_metadata; without it this is not a SerpApi answer at all.
    if (typeof body !== "object" || body === null || body.search_metadata === undefined) {
      return failure(`${this.name} answered an unreadable body`);
    }
    const text = answerText(body);
    if (text === "") {
      // SerpApi's own explanation means the product gave no answer this time: worth another try.
      const reason = typeof body.error === "string" ? body.error : null;
      return failure(`${this.name} answered with no text${reason === null ? "" : `: ${reason}`}`, {
        retryable: reason !== null,
      });
    }
    return {
      ok: true,
      answer: {
        text,
        model: this.#flavour.model,
        citations: referenceCitations(body.references),
        searches: [],
        // SerpApi bills per search; it reports no tokens.
        usage: usageOf({ searchCalls: 1 }),
      },
    };
  }
}
