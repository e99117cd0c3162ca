import { type GenerateContentResponse, GoogleGenAI } from "@google/genai";
import type { SourceCitation } from "../../measurement/types.ts";
import type { CredentialedSettings } from "../descriptor.ts";
import { toFailure } from "../errors.ts";
import { cleanSearches } from "../searches.ts";
import { type EngineAdapter, type EngineOutcome, type EngineQuery, failure } from "../types.ts";

/**
 * `gemini`: the Gemini API grounded with Google Search; sources are the grounding chunks (redirect
 * URLs whose title is the source's domain, which the measurement uses as the domain).
 */
export class GeminiAdapter implements EngineAdapter {
  readonly name = "gemini";
  readonly #client: GoogleGenAI;
  readonly #model: string;

  constructor(settings: CredentialedSettings, timeoutMs: number) {
    this.#client = new GoogleGenAI({
      apiKey: settings.apiKey,
      httpOptions: {
        ...(settings.baseUrl === null ? {} : { baseUrl: settings.baseUrl }),
        timeout: timeoutMs,
        retryOptions: { attempts: 1 }, // the registry retries, the same way for every engine
      },
    });
    this.#model = settings.model;
  }

  async ask(query: EngineQuery, signal: AbortSignal): Promise<EngineOutcome> {
    let response: GenerateContentResponse;
    try {
      response = await this.#client.models.generateContent({
        model: this.#model,
        contents: query.prompt,
        config: { tools: [{ googleSearch: {} }], abortSignal: signal },
      });
    } catch (error) {
      const outcome = toFailure(this.name, error, signal.aborted);
      // The Gemini SDK exposes no response headers; the wait is in the error body's RetryInfo.
      const delay = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(String((error as Error)?.message ?? ""));
      if (!outcome.ok && outcome.error.retryAfter === null && delay?.[1] !== undefined) {
        outcome.error.retryAfter = Number(delay[1]);
      }
      return outcome;
    }
    const candidate = response?.candidates?.[0];
    const text = (candidate?.content?.parts ?? [])
      .map((part) => (part.thought === true ? "" : (part.text ?? "")))
      .join("");
    if (candidate === undefined || text === "") {
      return failure(`${this.name} answered with no text (finish reason ${candidate?.finishReason ?? "none"})`);
    }
    const citations: SourceCitation[] = [];
    for (const chunk of candidate.groundingMetadata?.groundingChunks ?? []) {
      if (chunk.web?.uri !== undefined) citations.push({ url: chunk.web.uri, title: chunk.web.title ?? null });
    }
    const queries = candidate.groundingMetadata?.webSearchQueries;
    const searches = cleanSearches(Array.isArray(queries) ? queries : []);
    return { ok: true, answer: { text, model: response.modelVersion ?? this.#model, citations, searches } };
  }
}
