import Anthropic from "@anthropic-ai/sdk";
import type { SourceCitation } from "../../measurement/types.ts";
import type { CredentialedSettings } from "../descriptor.ts";
import { toFailure } from "../errors.ts";
import { cleanSearches } from "../searches.ts";
import { type EngineAdapter, type EngineOutcome, type EngineQuery, failure } from "../types.ts";

/** `claude`: Anthropic's Messages API with the web search tool; sources are its text blocks' citations. */
export class AnthropicAdapter implements EngineAdapter {
  readonly name = "claude";
  readonly #client: Anthropic;
  readonly #model: string;

  constructor(settings: CredentialedSettings, timeoutMs: number) {
    this.#client = new Anthropic({
      apiKey: settings.apiKey,
      ...(settings.baseUrl === null ? {} : { baseURL: settings.baseUrl }),
      timeout: timeoutMs,
      maxRetries: 0,
    });
    this.#model = settings.model;
  }

  async ask(query: EngineQuery, signal: AbortSignal): Promise<EngineOutcome> {
    let message: Anthropic.Message;
    try {
      message = await this.#client.messages.create(
        {
          model: this.#model,
          max_tokens: 2_048,
          messages: [{ role: "user", content: query.prompt }],
          tools: [
            {
              type: "web_search_20250305",
              name: "web_search",
              max_uses: 5,
              ...(query.country === null
                ? {}
                : { user_location: { type: "approximate" as const, country: query.country } }),
            },
          ],
        },
        { signal },
      );
    } catch (error) {
      return toFailure(this.name, error, signal.aborted);
    }
    if (!Array.isArray(message?.content)) return failure(`${this.name} answered without content`);
    const text: string[] = [];
    const citations: SourceCitation[] = [];
    const searches: unknown[] = [];
    for (const block of message.content) {
      if (block?.type === "server_tool_use" && block.name === "web_search") {
        searches.push((block.input as { query?: unknown } | null)?.query);
        continue;
      }
      if (block?.type !== "text") continue;
      text.push(block.text);
      for (const citation of block.citations ?? []) {
        if (citation.type === "web_search_result_location")
          citations.push({ url: citation.url, title: citation.title ?? null });
      }
    }
    if (text.length === 0)
      return failure(`${this.name} answered with no text (stop reason ${message.stop_reason ?? "unknown"})`);
    // Text blocks split around citations; joined without separators they read as written.
    return {
      ok: true,
      answer: {
        text: text.join(""),
        model: message.model ?? this.#model,
        citations,
        searches: cleanSearches(searches),
      },
    };
  }
}
