import OpenAI from "openai";
import type { VendorSettings } from "../../../config/engines.ts";
import type { SourceCitation } from "../../measurement/types.ts";
import { toFailure } from "../errors.ts";
import { type EngineAdapter, type EngineOutcome, type EngineQuery, failure } from "../types.ts";

/** `chatgpt`: OpenAI's Responses API with the web search tool; sources are its url_citation annotations. */
export class OpenAIResponsesAdapter implements EngineAdapter {
  readonly name = "chatgpt";
  readonly #client: OpenAI;
  readonly #model: string;

  constructor(settings: VendorSettings & { apiKey: string }, timeoutMs: number) {
    this.#client = new OpenAI({
      apiKey: settings.apiKey,
      ...(settings.baseUrl === null ? {} : { baseURL: settings.baseUrl }),
      timeout: timeoutMs,
      maxRetries: 0, // the registry retries, the same way for every engine
    });
    this.#model = settings.model;
  }

  async ask(query: EngineQuery, signal: AbortSignal): Promise<EngineOutcome> {
    let response: OpenAI.Responses.Response;
    try {
      response = await this.#client.responses.create(
        {
          model: this.#model,
          input: query.prompt,
          tools: [
            {
              type: "web_search",
              ...(query.country === null ? {} : { user_location: { type: "approximate", country: query.country } }),
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
    for (const item of response.output) {
      if (item.type !== "message") continue;
      for (const part of item.content) {
        if (part.type !== "output_text") continue;
        texts.push(part.text);
        for (const annotation of part.annotations ?? []) {
          if (annotation.type === "url_citation")
            citations.push({ url: annotation.url, title: annotation.title ?? null });
        }
      }
    }
    if (texts.length === 0)
      return failure(`${this.name} answered with no text (status ${response.status ?? "unknown"})`);
    return { ok: true, answer: { text: texts.join("\n\n"), model: response.model ?? this.#model, citations } };
  }
}
