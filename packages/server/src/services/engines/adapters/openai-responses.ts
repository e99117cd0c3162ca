import OpenAI from "openai";
import type { SourceCitation } from "../../measurement/types.ts";
import type { CredentialedSettings } from "../descriptor.ts";
import { toFailure } from "../errors.ts";
import { cleanSearches } from "../searches.ts";
import { type EngineAdapter, type EngineOutcome, type EngineQuery, failure } from "../types.ts";

export interface ResponsesFlavour {
  /** The engine's name: `chatgpt` (OpenAI) or `grok` (xAI, whose API speaks the same protocol). */
  name: string;
  /** Whether the vendor's web search tool takes a `user_location` (OpenAI's does). */
  userLocation: boolean;
}

/**
 * The Responses API with the web search tool: `chatgpt` on OpenAI, `grok` on xAI (its Live Search
 * through chat completions is retired). Sources are the `url_citation` annotations, plus xAI's
 * top-level `citations` list of URLs.
 */
export class OpenAIResponsesAdapter implements EngineAdapter {
  readonly name: string;
  readonly #client: OpenAI;
  readonly #model: string;
  readonly #userLocation: boolean;

  constructor(
    settings: CredentialedSettings,
    timeoutMs: number,
    flavour: ResponsesFlavour = { name: "chatgpt", userLocation: true },
  ) {
    this.name = flavour.name;
    this.#userLocation = flavour.userLocation;
    this.#client = new OpenAI({
      apiKey: settings.apiKey,
      ...(settings.baseUrl === null ? {} : { baseURL: settings.baseUrl }),
      timeout: timeoutMs,
      maxRetries: 0, // the registry retries, the same way for every engine
    });
    this.#model = settings.model;
  }

  async ask(query: EngineQuery, signal: AbortSignal): Promise<EngineOutcome> {
    let response: OpenAI.Responses.Response & { citations?: unknown };
    try {
      response = await this.#client.responses.create(
        {
          model: this.#model,
          input: query.prompt,
          tools: [
            {
              type: "web_search",
              ...(query.country === null || !this.#userLocation
                ? {}
                : { user_location: { type: "approximate", country: query.country } }),
            },
          ],
        },
        { signal },
      );
    } catch (error) {
      return toFailure(this.name, error, signal.aborted);
    }
    if (!Array.isArray(response?.output)) return failure(`${this.name} answered without output`);
    const texts: string[] = [];
    const citations: SourceCitation[] = [];
    const searches: unknown[] = [];
    for (const item of response.output) {
      if (item?.type === "web_search_call") {
        // `action.queries` is the current field; `action.query` (deprecated) is what older answers carry.
        const action: { type?: unknown; query?: unknown; queries?: unknown } | undefined = item.action;
        if (action?.type === "search") {
          if (Array.isArray(action.queries)) searches.push(...action.queries);
          searches.push(action.query);
        }
        continue;
      }
      if (item?.type !== "message") continue;
      for (const part of item.content) {
        if (part.type !== "output_text") continue;
        texts.push(part.text);
        for (const annotation of part.annotations ?? []) {
          if (annotation.type === "url_citation")
            citations.push({ url: annotation.url, title: annotation.title ?? null });
        }
      }
    }
    if (Array.isArray(response.citations)) {
      for (const url of response.citations) {
        if (typeof url === "string" && !citations.some((c) => c.url === url)) citations.push({ url, title: null });
      }
    }
    if (texts.length === 0)
      return failure(`${this.name} answered with no text (status ${response.status ?? "unknown"})`);
    return {
      ok: true,
      answer: {
        text: texts.join("\n\n"),
        model: response.model ?? this.#model,
        citations,
        searches: cleanSearches(searches),
      },
    };
  }
}
