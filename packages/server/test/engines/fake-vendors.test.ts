import Anthropic from "@anthropic-ai/sdk";
import { ApiError, GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import type { ChatCompletion } from "openai/resources/chat/completions/completions";
import type { ResponseOutputMessage, ResponseOutputText } from "openai/resources/responses/responses";
import { describe, expect, it, vi } from "vitest";
import {
  type AiModeBody,
  type ChatFlavour,
  type CopilotBody,
  DEFAULT_ANSWER,
  type FakeAnswer,
  type FakeVendor,
  type PerplexitySearchResult,
  type SerpApiAiOverview,
  startFakeAnthropic,
  startFakeChatCompletions,
  startFakeDataForSeo,
  startFakeGemini,
  startFakeOpenAIResponses,
  startFakeSerpApi,
} from "../helpers/fake-vendors/index.ts";

/**
 * Each fake vendor is driven by the vendor's OFFICIAL SDK (or fetch, for SerpApi) to prove the
 * fake speaks a wire format the SDK accepts, and that errors, retries and timeouts behave as with
 * the real service.
 */

const ANSWER: FakeAnswer = {
  text: "Acme Widgets is the top-rated widget maker in 2025. Reviewers praise its durability. Its prices are fair.",
  citations: [
    { url: "https://www.widgetreview.com/best-widgets", title: "Best widgets of 2025" },
    { url: "https://news.example.org/acme-durability", title: "How durable are Acme widgets?" },
    { url: "https://shop.example.net/prices", title: "Widget price comparison" },
  ],
};

const SHORT_TIMEOUT_MS = 300;

async function withFake<F extends FakeVendor<string>>(
  start: () => Promise<F>,
  run: (fake: F) => Promise<void>,
): Promise<void> {
  const fake = await start();
  try {
    await run(fake);
  } finally {
    await fake.stop();
  }
}

/** A wait of the client's: its length, and how many requests the fake had received when it began and ended. */
interface Wait {
  ms: number;
  requestsWhenSet: number;
  requestsWhenDone: number | null;
}

/**
 * Runs `act` while watching the timers set for any of `lengths` milliseconds (the SDKs wait before a
 * retry with setTimeout): each one is recorded with the number of requests the fake had received when it was set
 * and when it ended, and ends at once. What a test checks is which wait the client asked for and that
 * it retried after it, not how long it took on the clock (timings belong in the benchmark).
 */
async function watchWaits(fake: FakeVendor<string>, lengths: number[], act: () => Promise<void>): Promise<Wait[]> {
  const waits: Wait[] = [];
  const realSetTimeout = globalThis.setTimeout;
  const watched = (callback: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
    if (delay === undefined || !lengths.includes(delay)) return realSetTimeout(callback, delay, ...args);
    const wait: Wait = { ms: delay, requestsWhenSet: fake.requests.length, requestsWhenDone: null };
    waits.push(wait);
    return realSetTimeout(() => {
      wait.requestsWhenDone = fake.requests.length;
      callback(...args);
    }, 0);
  };
  const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation(watched as typeof setTimeout);
  try {
    await act();
  } finally {
    spy.mockRestore();
  }
  return waits;
}

/** One wait of retry-after's second (`retry-after: 1`), set after the first request's 429 and over before the retry. */
const RETRY_AFTER_WAIT: Wait[] = [{ ms: 1_000, requestsWhenSet: 1, requestsWhenDone: 1 }];

describe("fake OpenAI Responses API", () => {
  const client = (url: string, options: { maxRetries?: number; timeout?: number } = {}) =>
    new OpenAI({ baseURL: url, apiKey: "sk-test", maxRetries: 0, ...options });
  const ask = (openai: OpenAI) =>
    openai.responses.create({ model: "gpt-5", input: "best widget maker?", tools: [{ type: "web_search" }] });

  it("answers with a web_search_call and a message whose url_citation annotations index into the text", async () => {
    await withFake(startFakeOpenAIResponses, async (fake) => {
      fake.setAnswer(ANSWER);
      const response = await ask(client(fake.url));
      expect(fake.url.endsWith("/v1")).toBe(true);
      expect(fake.requests[0]?.method).toBe("POST");
      expect(fake.requests[0]?.path).toBe("/v1/responses");
      expect(fake.requests[0]?.headers.authorization).toBe("Bearer sk-test");
      expect(response.object).toBe("response");
      expect(response.status).toBe("completed");
      expect(response.model).toBe("gpt-5");
      expect(response.output_text.startsWith(ANSWER.text)).toBe(true);
      const search = response.output.find((item) => item.type === "web_search_call");
      expect(search?.action).toEqual({ type: "search", query: "best widget maker?", queries: ["best widget maker?"] });
      const message = response.output.find((item): item is ResponseOutputMessage => item.type === "message");
      const part = message?.content[0];
      expect(part?.type).toBe("output_text");
      const annotations = (part as ResponseOutputText).annotations;
      expect(annotations).toHaveLength(3);
      for (const [index, annotation] of annotations.entries()) {
        if (annotation.type !== "url_citation") throw new Error(`unexpected ${annotation.type}`);
        const citation = ANSWER.citations[index];
        expect(annotation.url).toBe(`${citation?.url}?utm_source=openai`);
        expect(annotation.title).toBe(citation?.title);
        const span = response.output_text.slice(annotation.start_index, annotation.end_index);
        expect(span).toBe(`([${new URL(citation?.url ?? "").hostname.replace(/^www\./, "")}](${annotation.url}))`);
      }
    });
  });

  it("reports each search it was given as its own web_search_call", async () => {
    await withFake(startFakeOpenAIResponses, async (fake) => {
      fake.setAnswer({ ...ANSWER, searches: ["widget makers", "widget maker reviews"] });
      const response = await ask(client(fake.url));
      const actions = response.output.flatMap((item) => (item.type === "web_search_call" ? [item.action] : []));
      expect(actions.map((action) => (action.type === "search" ? action.queries : null))).toEqual([
        ["widget makers"],
        ["widget maker reviews"],
      ]);
    });
  });

  it("can leave the cited URLs untagged", async () => {
    await withFake(
      () => startFakeOpenAIResponses({ utmSource: false }),
      async (fake) => {
        fake.setAnswer({ text: "One sentence.", citations: [{ url: "https://a.example/x", title: "X" }] });
        const response = await ask(client(fake.url));
        expect(response.output_text).toBe("One sentence. ([a.example](https://a.example/x))");
      },
    );
  });

  it("recovers from a 429 with the SDK's own retry, after waiting for retry-after", async () => {
    await withFake(startFakeOpenAIResponses, async (fake) => {
      fake.script("rate_limited", "ok");
      const waits = await watchWaits(fake, [1_000], async () => {
        const response = await ask(client(fake.url, { maxRetries: 1 }));
        expect(response.status).toBe("completed");
      });
      expect(fake.requests).toHaveLength(2);
      expect(waits).toEqual(RETRY_AFTER_WAIT);
    });
  });

  it("raises InternalServerError with OpenAI's error envelope on a 500", async () => {
    await withFake(startFakeOpenAIResponses, async (fake) => {
      fake.script("server_error");
      const error = await ask(client(fake.url)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.InternalServerError);
      const apiError = error as InstanceType<typeof OpenAI.InternalServerError>;
      expect(apiError.status).toBe(500);
      expect(apiError.type).toBe("server_error");
      expect(apiError.requestID).toMatch(/^req_/);
    });
  });

  it("is cut by the SDK timeout when the request hangs", async () => {
    await withFake(startFakeOpenAIResponses, async (fake) => {
      fake.script("hang");
      const openai = client(fake.url, { timeout: SHORT_TIMEOUT_MS });
      await expect(ask(openai)).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    });
  });

  it("raises on a malformed body and returns an empty object for the wrong shape", async () => {
    await withFake(startFakeOpenAIResponses, async (fake) => {
      fake.script("malformed", "wrong_shape");
      await expect(ask(client(fake.url))).rejects.toThrow(SyntaxError);
      const response = await ask(client(fake.url));
      expect(response.output).toBeUndefined();
    });
  });
});

describe("fake Anthropic Messages API", () => {
  const client = (url: string, options: { maxRetries?: number; timeout?: number } = {}) =>
    new Anthropic({ baseURL: url, apiKey: "sk-ant-test", maxRetries: 0, timeout: 2_000, ...options });
  const ask = (anthropic: Anthropic) =>
    anthropic.messages.create({
      model: "claude-sonnet-4-6",
      max_tokens: 1024,
      messages: [{ role: "user", content: "best widget maker?" }],
      tools: [{ type: "web_search_20250305", name: "web_search", max_uses: 5 }],
    });

  it("answers with server_tool_use, web_search_tool_result and cited text blocks", async () => {
    await withFake(startFakeAnthropic, async (fake) => {
      fake.setAnswer(ANSWER);
      const message = await ask(client(fake.url));
      expect(fake.requests[0]?.path).toBe("/v1/messages");
      // SDK 1.x sends the API key as a bearer token, not as `x-api-key`.
      expect(fake.requests[0]?.headers.authorization).toBe("Bearer sk-ant-test");
      expect(fake.requests[0]?.headers["anthropic-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(message.type).toBe("message");
      expect(message.model).toBe("claude-sonnet-4-6");
      expect(message.stop_reason).toBe("end_turn");
      expect(message.usage.server_tool_use?.web_search_requests).toBe(1);
      const [toolUse, toolResult] = message.content;
      if (toolUse?.type !== "server_tool_use") throw new Error("no server_tool_use block");
      expect(toolUse.name).toBe("web_search");
      expect(toolUse.input).toEqual({ query: "best widget maker?" });
      if (toolResult?.type !== "web_search_tool_result") throw new Error("no web_search_tool_result block");
      expect(toolResult.tool_use_id).toBe(toolUse.id);
      expect(Array.isArray(toolResult.content) && toolResult.content.map((result) => result.url)).toEqual(
        ANSWER.citations.map((citation) => citation.url),
      );
      const texts = message.content.filter((block) => block.type === "text");
      expect(texts.length).toBeGreaterThanOrEqual(2);
      expect(texts.length).toBeLessThanOrEqual(3);
      expect(texts.map((block) => block.text).join("")).toBe(ANSWER.text);
      expect(texts[0]?.citations).toBeNull();
      const cited = texts.flatMap((block) => block.citations ?? []);
      expect(cited.map((citation) => (citation.type === "web_search_result_location" ? citation.url : null))).toEqual(
        expect.arrayContaining(ANSWER.citations.map((citation) => citation.url)),
      );
      for (const citation of cited) {
        expect(citation.type).toBe("web_search_result_location");
        if (citation.type === "web_search_result_location") expect(citation.encrypted_index.length).toBeGreaterThan(0);
      }
    });
  });

  it("reports each search it was given as a server_tool_use block, each followed by its results", async () => {
    await withFake(startFakeAnthropic, async (fake) => {
      fake.setAnswer({ ...ANSWER, searches: ["widget makers", "widget maker reviews"] });
      const message = await ask(client(fake.url));
      expect(message.usage.server_tool_use?.web_search_requests).toBe(2);
      expect(message.content.slice(0, 4).map((block) => block.type)).toEqual([
        "server_tool_use",
        "web_search_tool_result",
        "server_tool_use",
        "web_search_tool_result",
      ]);
      const inputs = message.content.flatMap((block) => (block.type === "server_tool_use" ? [block.input] : []));
      expect(inputs).toEqual([{ query: "widget makers" }, { query: "widget maker reviews" }]);
    });
  });

  it("recovers from a 429 with the SDK's own retry, after waiting for retry-after", async () => {
    await withFake(startFakeAnthropic, async (fake) => {
      fake.script("rate_limited", "ok");
      const waits = await watchWaits(fake, [1_000], async () => {
        const message = await ask(client(fake.url, { maxRetries: 1 }));
        expect(message.type).toBe("message");
      });
      expect(fake.requests).toHaveLength(2);
      expect(waits).toEqual(RETRY_AFTER_WAIT);
    });
  });

  it("raises InternalServerError with Anthropic's error envelope on a 500", async () => {
    await withFake(startFakeAnthropic, async (fake) => {
      fake.script("server_error");
      const error = await ask(client(fake.url)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Anthropic.InternalServerError);
      const apiError = error as InstanceType<typeof Anthropic.InternalServerError>;
      expect(apiError.status).toBe(500);
      expect(apiError.type).toBe("api_error");
      expect(apiError.requestID).toMatch(/^req_/);
    });
  });

  it("answers 529 overloaded_error when told to", async () => {
    await withFake(startFakeAnthropic, async (fake) => {
      fake.script("overloaded");
      const error = await ask(client(fake.url)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Anthropic.APIError);
      expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
      expect((error as InstanceType<typeof Anthropic.APIError>).type).toBe("overloaded_error");
    });
  });

  it("is cut by the SDK timeout when the request hangs", async () => {
    await withFake(startFakeAnthropic, async (fake) => {
      fake.script("hang");
      const anthropic = client(fake.url, { timeout: SHORT_TIMEOUT_MS });
      await expect(ask(anthropic)).rejects.toBeInstanceOf(Anthropic.APIConnectionTimeoutError);
    });
  });

  it("raises on a malformed body", async () => {
    await withFake(startFakeAnthropic, async (fake) => {
      fake.script("malformed");
      await expect(ask(client(fake.url))).rejects.toThrow(SyntaxError);
    });
  });
});

describe("fake Gemini API", () => {
  const client = (url: string, options: { timeout?: number; retries?: boolean } = {}) =>
    new GoogleGenAI({
      apiKey: "gemini-test",
      httpOptions: {
        baseUrl: url,
        ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
        ...(options.retries ? { retryOptions: { attempts: 2, initialDelay: 0.2, jitter: 0 } } : {}),
      },
    });
  const ask = (ai: GoogleGenAI) =>
    ai.models.generateContent({
      model: "gemini-2.5-flash",
      contents: "best widget maker?",
      config: { tools: [{ googleSearch: {} }] },
    });

  it("answers with grounding metadata: redirect URIs titled by domain, and supports by byte offset", async () => {
    await withFake(startFakeGemini, async (fake) => {
      fake.setAnswer(ANSWER);
      const response = await ask(client(fake.url));
      expect(fake.requests[0]?.method).toBe("POST");
      expect(fake.requests[0]?.path).toBe("/v1beta/models/gemini-2.5-flash:generateContent");
      expect(fake.requests[0]?.headers["x-goog-api-key"]).toBe("gemini-test");
      expect(response.text).toBe(ANSWER.text);
      expect(response.modelVersion).toBe("gemini-2.5-flash");
      const metadata = response.candidates?.[0]?.groundingMetadata;
      expect(metadata?.webSearchQueries).toEqual(["best widget maker?"]);
      expect(metadata?.searchEntryPoint?.renderedContent).toContain("<style>");
      const chunks = metadata?.groundingChunks ?? [];
      expect(chunks).toHaveLength(3);
      for (const [index, chunk] of chunks.entries()) {
        const uri = chunk.web?.uri ?? "";
        expect(uri.startsWith("https://vertexaisearch.cloud.google.com/grounding-api-redirect/")).toBe(true);
        expect(fake.redirects.get(uri)).toBe(ANSWER.citations[index]?.url);
        expect(chunk.web?.title).toBe(new URL(ANSWER.citations[index]?.url ?? "").hostname.replace(/^www\./, ""));
      }
      const supports = metadata?.groundingSupports ?? [];
      expect(supports.length).toBeGreaterThan(0);
      const bytes = Buffer.from(ANSWER.text, "utf8");
      for (const support of supports) {
        const { startIndex = 0, endIndex = 0, text } = support.segment ?? {};
        expect(bytes.subarray(startIndex, endIndex).toString("utf8")).toBe(text);
        expect(support.confidenceScores).toHaveLength(support.groundingChunkIndices?.length ?? -1);
      }
      expect(supports[0]?.segment?.startIndex).toBeUndefined();
    });
  });

  it("can point the chunk URIs at itself and redirect them to the sources", async () => {
    await withFake(
      () => startFakeGemini({ redirectsToSelf: true }),
      async (fake) => {
        fake.setAnswer(ANSWER);
        const response = await ask(client(fake.url));
        const uri = response.candidates?.[0]?.groundingMetadata?.groundingChunks?.[0]?.web?.uri ?? "";
        expect(uri.startsWith(`${fake.origin}/grounding-api-redirect/`)).toBe(true);
        const redirect = await fetch(uri, { redirect: "manual" });
        expect(redirect.status).toBe(302);
        expect(redirect.headers.get("location")).toBe(ANSWER.citations[0]?.url);
        expect(fake.requests).toHaveLength(2);
      },
    );
  });

  it("recovers from a 429 when the SDK's retries are on (they use their own backoff, not retry-after)", async () => {
    await withFake(startFakeGemini, async (fake) => {
      fake.script("rate_limited", "ok");
      const waits = await watchWaits(fake, [200, 1_000], async () => {
        const response = await ask(client(fake.url, { retries: true }));
        expect(response.text).toBe(DEFAULT_ANSWER.text);
      });
      expect(fake.requests).toHaveLength(2);
      // The Gemini SDK does not read retry-after: between the two requests it waited its own initialDelay
      // (0.2 s), not retry-after's 1 s.
      expect(waits).toEqual([{ ms: 200, requestsWhenSet: 1, requestsWhenDone: 1 }]);
    });
  });

  it("raises ApiError with status 500 and Google's error envelope when retries are off", async () => {
    await withFake(startFakeGemini, async (fake) => {
      fake.script("server_error");
      const error = await ask(client(fake.url)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(500);
      expect(JSON.parse((error as ApiError).message)).toMatchObject({ error: { code: 500, status: "INTERNAL" } });
      expect(fake.requests).toHaveLength(1);
    });
  });

  it("answers 429 RESOURCE_EXHAUSTED with a RetryInfo detail", async () => {
    await withFake(startFakeGemini, async (fake) => {
      fake.script("rate_limited");
      const error = await ask(client(fake.url)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ApiError);
      const body: unknown = JSON.parse((error as ApiError).message);
      expect(body).toMatchObject({
        error: {
          code: 429,
          status: "RESOURCE_EXHAUSTED",
          details: expect.arrayContaining([
            { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "1s" },
          ]) as unknown,
        },
      });
    });
  });

  it("is cut by the SDK timeout when the request hangs", async () => {
    await withFake(startFakeGemini, async (fake) => {
      fake.script("hang");
      // Not an ApiError: the SDK lets fetch's DOMException through. The fake never answers, so only the
      // SDK's timeout can have aborted the request it received.
      await expect(ask(client(fake.url, { timeout: SHORT_TIMEOUT_MS }))).rejects.toMatchObject({ name: "AbortError" });
      expect(fake.requests).toHaveLength(1);
    });
  });

  it("raises on a malformed body", async () => {
    await withFake(startFakeGemini, async (fake) => {
      fake.script("malformed");
      await expect(ask(client(fake.url))).rejects.toThrow(SyntaxError);
    });
  });
});

describe.each<ChatFlavour>(["perplexity", "xai", "deepseek", "plain"])("fake chat completions (%s)", (flavour) => {
  const start = () => startFakeChatCompletions({ flavour });
  const client = (url: string, options: { maxRetries?: number; timeout?: number } = {}) =>
    new OpenAI({ baseURL: url, apiKey: "test-key", maxRetries: 0, ...options });
  const ask = (openai: OpenAI) =>
    openai.chat.completions.create({
      model: "some-model",
      messages: [{ role: "user", content: "best widget maker?" }],
    });

  it("answers a standard chat completion with the flavour's extras", async () => {
    await withFake(start, async (fake) => {
      fake.setAnswer(ANSWER);
      const completion: ChatCompletion & { citations?: string[]; search_results?: PerplexitySearchResult[] } =
        await ask(client(fake.url));
      expect(fake.requests[0]?.path).toBe("/chat/completions");
      expect(completion.object).toBe("chat.completion");
      expect(completion.model).toBe("some-model");
      expect(completion.choices[0]?.finish_reason).toBe("stop");
      const content = completion.choices[0]?.message.content ?? "";
      const urls = ANSWER.citations.map((citation) => citation.url);
      if (flavour === "perplexity") {
        expect(content).toMatch(/\[1\]/);
        expect(content.replace(/\[\d+\]/g, "")).toBe(ANSWER.text);
        expect(completion.citations).toEqual(urls);
        expect(completion.search_results?.map((result) => [result.title, result.url])).toEqual(
          ANSWER.citations.map((citation) => [citation.title, citation.url]),
        );
        expect(completion.search_results?.[0]?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      } else if (flavour === "xai") {
        expect(content).toBe(ANSWER.text);
        expect(completion.citations).toEqual(urls);
        expect(completion.search_results).toBeUndefined();
      } else {
        expect(content).toBe(ANSWER.text);
        expect(completion.citations).toBeUndefined();
        expect(completion.search_results).toBeUndefined();
      }
    });
  });

  it("is also served under /v1", async () => {
    await withFake(start, async (fake) => {
      const completion = await ask(client(`${fake.url}/v1`));
      expect(fake.requests[0]?.path).toBe("/v1/chat/completions");
      expect(completion.choices[0]?.message.content?.length).toBeGreaterThan(0);
    });
  });

  it("recovers from a 429 with the SDK's own retry, after waiting for retry-after", async () => {
    await withFake(start, async (fake) => {
      fake.script("rate_limited", "ok");
      const waits = await watchWaits(fake, [1_000], async () => {
        const completion = await ask(client(fake.url, { maxRetries: 1 }));
        expect(completion.object).toBe("chat.completion");
      });
      expect(fake.requests).toHaveLength(2);
      expect(waits).toEqual(RETRY_AFTER_WAIT);
    });
  });

  it("raises InternalServerError with status 500 when retries are off", async () => {
    await withFake(start, async (fake) => {
      fake.script("server_error");
      const error = await ask(client(fake.url)).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.InternalServerError);
      expect((error as InstanceType<typeof OpenAI.InternalServerError>).status).toBe(500);
    });
  });

  it("is cut by the SDK timeout when the request hangs", async () => {
    await withFake(start, async (fake) => {
      fake.script("hang");
      await expect(ask(client(fake.url, { timeout: SHORT_TIMEOUT_MS }))).rejects.toBeInstanceOf(
        OpenAI.APIConnectionTimeoutError,
      );
    });
  });

  it("raises on a malformed body", async () => {
    await withFake(start, async (fake) => {
      fake.script("malformed");
      await expect(ask(client(fake.url))).rejects.toThrow(SyntaxError);
    });
  });
});

describe("fake chat completions error bodies", () => {
  it("xAI's errors are { code, error } with a string error", async () => {
    await withFake(
      () => startFakeChatCompletions({ flavour: "xai" }),
      async (fake) => {
        fake.script("server_error");
        const openai = new OpenAI({ baseURL: fake.url, apiKey: "k", maxRetries: 0 });
        const error = await openai.chat.completions
          .create({ model: "grok-4", messages: [{ role: "user", content: "hi" }] })
          .catch((caught: unknown) => caught);
        expect(typeof (error as InstanceType<typeof OpenAI.APIError>).error).toBe("string");
      },
    );
  });
});

describe("fake SerpApi", () => {
  interface SearchBody {
    search_metadata?: { id: string; status: string };
    search_parameters?: Record<string, string>;
    ai_overview?: Partial<SerpApiAiOverview> & { page_token?: string; serpapi_link?: string };
    organic_results?: { link: string }[];
    error?: string;
  }

  const search = (url: string, params: Record<string, string>, signal?: AbortSignal) =>
    fetch(`${url}/search.json?${new URLSearchParams({ api_key: "serp-test", ...params })}`, { signal });

  /** The snippets of the overview's paragraphs and list items, in order. */
  const snippets = (overview: Partial<SerpApiAiOverview> | undefined): string[] =>
    (overview?.text_blocks ?? []).flatMap((block) =>
      block.type === "list"
        ? (block.list ?? []).map((item) => item.snippet)
        : block.type === "paragraph"
          ? [block.snippet ?? ""]
          : [],
    );

  /** A client-side retry honouring retry-after, as an adapter would write it (there is no SDK). */
  async function searchWithRetry(url: string, params: Record<string, string>): Promise<globalThis.Response> {
    const response = await search(url, params);
    if (response.status !== 429) return response;
    await response.body?.cancel();
    const wait = Number(response.headers.get("retry-after") ?? "0") * 1000;
    await new Promise((resolve) => setTimeout(resolve, wait));
    return search(url, params);
  }

  it("answers a google search with an AI Overview whose snippets hold the text", async () => {
    await withFake(startFakeSerpApi, async (fake) => {
      fake.setAnswer(ANSWER);
      const response = await search(fake.url, { engine: "google", q: "best widget maker", gl: "us", hl: "en" });
      expect(response.status).toBe(200);
      const body = (await response.json()) as SearchBody;
      expect(fake.requests[0]?.query).toMatchObject({ engine: "google", q: "best widget maker", api_key: "serp-test" });
      expect(body.search_metadata?.status).toBe("Success");
      expect(body.search_parameters).toMatchObject({ engine: "google", q: "best widget maker", gl: "us", hl: "en" });
      const overview = body.ai_overview;
      expect(overview?.text_blocks?.map((block) => block.type)).toEqual(["heading", "paragraph", "list"]);
      expect(snippets(overview).join(" ")).toContain(ANSWER.text);
      expect(overview?.references?.map((reference) => [reference.link, reference.title, reference.index])).toEqual(
        ANSWER.citations.map((citation, index) => [citation.url, citation.title, index]),
      );
      const used = (overview?.text_blocks ?? []).flatMap((block) => [
        ...(block.reference_indexes ?? []),
        ...(block.list ?? []).flatMap((item) => item.reference_indexes),
      ]);
      expect(new Set(used)).toEqual(new Set([0, 1, 2]));
      expect(body.organic_results?.map((result) => result.link)).toEqual(ANSWER.citations.map((c) => c.url));
    });
  });

  it("pages: the first answer only has a page_token, redeemed with engine=google_ai_overview", async () => {
    await withFake(startFakeSerpApi, async (fake) => {
      fake.setAnswer(ANSWER);
      fake.script("paged");
      const first = (await (await search(fake.url, { engine: "google", q: "widgets" })).json()) as SearchBody;
      const token = first.ai_overview?.page_token ?? "";
      expect(token.length).toBeGreaterThan(20);
      expect(first.ai_overview?.text_blocks).toBeUndefined();
      expect(first.ai_overview?.serpapi_link).toContain("engine=google_ai_overview");
      const second = await search(fake.url, { engine: "google_ai_overview", page_token: token });
      expect(second.status).toBe(200);
      const body = (await second.json()) as SearchBody;
      expect(body.search_parameters?.engine).toBe("google_ai_overview");
      expect(snippets(body.ai_overview).join(" ")).toContain(ANSWER.text);
      const again = await search(fake.url, { engine: "google_ai_overview", page_token: token });
      expect(again.status).toBe(400);
      expect(((await again.json()) as SearchBody).error).toContain("page_token");
    });
  });

  it("answers 429 with retry-after, then the answer", async () => {
    await withFake(startFakeSerpApi, async (fake) => {
      fake.script("rate_limited", "ok");
      const waits = await watchWaits(fake, [1_000], async () => {
        const response = await searchWithRetry(fake.url, { engine: "google", q: "widgets" });
        expect(response.status).toBe(200);
      });
      expect(fake.requests).toHaveLength(2);
      expect(waits).toEqual(RETRY_AFTER_WAIT);
    });
  });

  it("answers 500 with { error } and 401 without an api_key", async () => {
    await withFake(startFakeSerpApi, async (fake) => {
      fake.script("server_error");
      const response = await search(fake.url, { engine: "google", q: "widgets" });
      expect(response.status).toBe(500);
      expect(typeof ((await response.json()) as SearchBody).error).toBe("string");
      const unauthorised = await fetch(`${fake.url}/search.json?engine=google&q=widgets`);
      expect(unauthorised.status).toBe(401);
      expect(((await unauthorised.json()) as SearchBody).error).toContain("API key");
    });
  });

  it("hangs until the client's timeout, and sends malformed JSON when told to", async () => {
    await withFake(startFakeSerpApi, async (fake) => {
      fake.script("hang", "malformed");
      await expect(
        search(fake.url, { engine: "google", q: "widgets" }, AbortSignal.timeout(SHORT_TIMEOUT_MS)),
      ).rejects.toThrow();
      const response = await search(fake.url, { engine: "google", q: "widgets" });
      expect(response.status).toBe(200);
      await expect(response.json()).rejects.toThrow(SyntaxError);
    });
  });
});

describe("fake SerpApi answer engines (Google AI Mode, Bing Copilot)", () => {
  type AnswerBody = Partial<AiModeBody & CopilotBody> & {
    search_metadata?: { status: string };
    search_parameters?: Record<string, string>;
    error?: string;
  };
  const search = async (url: string, params: Record<string, string>): Promise<AnswerBody> => {
    const response = await fetch(`${url}/search.json?${new URLSearchParams({ api_key: "serp-test", ...params })}`);
    expect(response.status).toBe(200);
    return (await response.json()) as AnswerBody;
  };
  /** The snippets of the paragraphs and list items, in order. */
  const snippets = (body: AnswerBody): string[] =>
    (body.text_blocks ?? []).flatMap((block) =>
      block.type === "list" ? (block.list ?? []).map((item) => item.snippet) : [block.snippet ?? ""],
    );

  it("answers engine=google_ai_mode with top-level text blocks, references and reconstructed markdown", async () => {
    await withFake(startFakeSerpApi, async (fake) => {
      fake.setAnswer(ANSWER);
      const body = await search(fake.url, { engine: "google_ai_mode", q: "best widget maker", gl: "us", hl: "en" });
      expect(body.search_metadata?.status).toBe("Success");
      expect(body.search_parameters).toMatchObject({ engine: "google_ai_mode", q: "best widget maker", gl: "us" });
      expect(snippets(body).join(" ")).toBe(ANSWER.text);
      expect(body.reconstructed_markdown).toContain(ANSWER.text.split(". ")[0]);
      expect(body.references?.map((reference) => [reference.index, reference.link, reference.title])).toEqual(
        ANSWER.citations.map((citation, index) => [index, citation.url, citation.title]),
      );
      expect(body.header).toBeUndefined();
    });
  });

  it("answers engine=bing_copilot with a header, text blocks and references", async () => {
    await withFake(startFakeSerpApi, async (fake) => {
      fake.setAnswer(ANSWER);
      const body = await search(fake.url, { engine: "bing_copilot", q: "best widget maker" });
      expect(body.header).toBe("Acme Widgets is the");
      expect(snippets(body).join(" ")).toBe(ANSWER.text);
      expect(body.references?.map((reference) => reference.source)).toEqual(["Widgetreview", "Example", "Example"]);
      expect(body.reconstructed_markdown).toBeUndefined();
    });
  });

  it("answers only markdown, or no answer with SerpApi's error, when told to", async () => {
    await withFake(startFakeSerpApi, async (fake) => {
      fake.setAnswer(ANSWER);
      fake.script("markdown_only", "no_answer");
      const markdownOnly = await search(fake.url, { engine: "google_ai_mode", q: "widgets" });
      expect(markdownOnly.text_blocks).toBeUndefined();
      expect(markdownOnly.reconstructed_markdown).toContain("Reviewers praise its durability.");
      const none = await search(fake.url, { engine: "bing_copilot", q: "widgets" });
      expect(none.error).toBe("Google hasn't returned any results for this query.");
      expect(none.text_blocks).toBeUndefined();
      const missing = await fetch(`${fake.url}/search.json?engine=google_ai_mode&api_key=serp-test`);
      expect(missing.status).toBe(400);
    });
  });
});

describe("fake DataForSEO LLM Scraper", () => {
  interface Envelope {
    status_code: number;
    status_message: string;
    tasks_count: number;
    tasks_error: number;
    tasks: {
      id: string;
      status_code: number;
      status_message: string;
      path: string[];
      data: Record<string, unknown>;
      result:
        | {
            keyword: string;
            location_code: number;
            language_code: string;
            model: string;
            markdown: string;
            sources: { url: string; title: string; domain: string }[];
            search_results?: { url: string; title: string }[];
            fan_out_queries?: string[];
            items: { type: string; markdown: string }[];
          }[]
        | null;
    }[];
  }
  const credentials = `Basic ${Buffer.from("login:password").toString("base64")}`;
  const live = (url: string, product: string, body: unknown, authorization: string | null = credentials) =>
    fetch(`${url}/v3/ai_optimization/${product}/llm_scraper/live/advanced`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(authorization === null ? {} : { authorization }) },
      body: JSON.stringify(body),
    });
  const task = { keyword: "best widget maker", location_code: 2840, language_code: "en" };

  it("answers a live task in DataForSEO's envelope: markdown, sources, and ChatGPT's search results and fan-out", async () => {
    await withFake(startFakeDataForSeo, async (fake) => {
      fake.setAnswer({ ...ANSWER, searches: ["widget makers", "widget maker reviews"] });
      const response = await live(fake.url, "chat_gpt", [task]);
      expect(response.status).toBe(200);
      const body = (await response.json()) as Envelope;
      expect(body).toMatchObject({ status_code: 20000, status_message: "Ok.", tasks_count: 1, tasks_error: 0 });
      const [first] = body.tasks;
      expect(first?.status_code).toBe(20000);
      expect(first?.path).toEqual(["v3", "ai_optimization", "chat_gpt", "llm_scraper", "live", "advanced"]);
      expect(first?.data).toMatchObject(task);
      const result = first?.result?.[0];
      expect(result).toMatchObject({ keyword: "best widget maker", location_code: 2840, language_code: "en" });
      expect(result?.markdown.startsWith(ANSWER.text)).toBe(true);
      expect(result?.sources.map((source) => [source.url, source.title])).toEqual(
        ANSWER.citations.map((citation) => [citation.url, citation.title]),
      );
      expect(result?.search_results?.map((r) => r.url)).toEqual(ANSWER.citations.map((c) => c.url));
      expect(result?.fan_out_queries).toEqual(["widget makers", "widget maker reviews"]);
      expect(result?.items[0]?.type).toBe("chat_gpt_text");
    });
  });

  it("gives Perplexity search results without fan-out, and Gemini neither", async () => {
    await withFake(startFakeDataForSeo, async (fake) => {
      fake.setAnswer(ANSWER);
      const perplexity = ((await (await live(fake.url, "perplexity", [task])).json()) as Envelope).tasks[0]
        ?.result?.[0];
      expect(perplexity?.search_results).toHaveLength(3);
      expect(perplexity?.fan_out_queries).toBeUndefined();
      const gemini = ((await (await live(fake.url, "gemini", [task])).json()) as Envelope).tasks[0]?.result?.[0];
      expect(gemini?.search_results).toBeUndefined();
      expect(gemini?.fan_out_queries).toBeUndefined();
      expect(gemini?.items[0]?.type).toBe("gemini_text");
    });
  });

  it("decodes %## and + in the keyword, as DataForSEO does", async () => {
    await withFake(startFakeDataForSeo, async (fake) => {
      const response = await live(fake.url, "chat_gpt", [{ ...task, keyword: "C%2B%2B for 100%25 of us" }]);
      expect(((await response.json()) as Envelope).tasks[0]?.result?.[0]?.keyword).toBe("C++ for 100% of us");
    });
  });

  it("reports errors in the body of an HTTP 200, at the request and at the task level", async () => {
    await withFake(startFakeDataForSeo, async (fake) => {
      fake.script("in_body_rate_limit", "in_body_internal_error", "in_body_invalid_field");
      const limited = await live(fake.url, "chat_gpt", [task]);
      expect(limited.status).toBe(200);
      expect(await limited.json()).toMatchObject({ status_code: 40202, tasks: null });
      const internal = (await (await live(fake.url, "chat_gpt", [task])).json()) as Envelope;
      expect(internal).toMatchObject({ status_code: 20000, tasks_error: 1 });
      expect(internal.tasks[0]).toMatchObject({ status_code: 50000, status_message: "Internal Error.", result: null });
      const invalid = (await (await live(fake.url, "chat_gpt", [task])).json()) as Envelope;
      expect(invalid.tasks[0]?.status_code).toBe(40501);
    });
  });

  it("refuses what DataForSEO refuses: no credentials, several tasks, no keyword, an unknown path", async () => {
    await withFake(startFakeDataForSeo, async (fake) => {
      const unauthorised = await live(fake.url, "chat_gpt", [task], null);
      expect(unauthorised.status).toBe(401);
      expect(await unauthorised.json()).toMatchObject({ status_code: 40100 });
      expect(await (await live(fake.url, "chat_gpt", [task, task])).json()).toMatchObject({ status_code: 40000 });
      const noKeyword = (await (await live(fake.url, "gemini", [{ location_code: 2840 }])).json()) as Envelope;
      expect(noKeyword.tasks[0]?.status_code).toBe(40501);
      const claude = (await (await live(fake.url, "claude", [task])).json()) as Envelope;
      expect(claude.tasks[0]).toMatchObject({ status_code: 40402, status_message: "Invalid Path." });
      const other = await fetch(`${fake.url}/v3/serp/google/organic/live/advanced`, { method: "POST" });
      expect(other.status).toBe(404);
      // None of these consumed a behaviour: the next task is answered.
      expect(((await (await live(fake.url, "chat_gpt", [task])).json()) as Envelope).status_code).toBe(20000);
    });
  });

  it("answers 429 with retry-after and 500 with its envelope, hangs, and sends malformed JSON", async () => {
    await withFake(startFakeDataForSeo, async (fake) => {
      fake.script("rate_limited", "server_error", "hang", "malformed");
      const limited = await live(fake.url, "chat_gpt", [task]);
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toBe("1");
      expect(await limited.json()).toMatchObject({ status_code: 40202 });
      const failed = await live(fake.url, "chat_gpt", [task]);
      expect(failed.status).toBe(500);
      expect(await failed.json()).toMatchObject({ status_code: 50000 });
      await expect(
        fetch(`${fake.url}/v3/ai_optimization/chat_gpt/llm_scraper/live/advanced`, {
          method: "POST",
          headers: { authorization: credentials },
          body: JSON.stringify([task]),
          signal: AbortSignal.timeout(SHORT_TIMEOUT_MS),
        }),
      ).rejects.toThrow();
      const malformed = await live(fake.url, "chat_gpt", [task]);
      await expect(malformed.json()).rejects.toThrow(SyntaxError);
    });
  });
});
