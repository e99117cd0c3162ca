import type { ChatCompletion } from "../../../server/test/helpers/fake-vendors/chat-completions.ts";
import { openAIErrorBody } from "../../../server/test/helpers/fake-vendors/openai-responses.ts";
import {
  base62,
  type FakeVendor,
  hex,
  lastUserText,
  nowSeconds,
  startFakeVendor,
  stringField,
  tokens,
} from "../../../server/test/helpers/fake-vendors/server.ts";

/**
 * What a scripted engine says: for each prompt, how many of each round's answers name the brand.
 * A round is `perRound` consecutive asks of that prompt (one analysis of `perRound` samples), so
 * the order in which an analysis's concurrent requests arrive changes nothing.
 */
export interface Script {
  perRound: number;
  /** Prompt → answers naming the brand in round 0, 1, 2…; a prompt not listed never names it. */
  mentions: Record<string, readonly number[]>;
  /** The answer that names the brand, and the one that does not. */
  named: string;
  unnamed: string;
}

export interface ScriptedEngine {
  /** The base URL a custom engine is given (`…/v1`, as Ollama's and vLLM's). */
  readonly url: string;
  readonly vendor: FakeVendor;
  /** How many times each prompt was asked. */
  readonly asked: ReadonlyMap<string, number>;
  stop(): Promise<void>;
}

/**
 * An OpenAI-compatible server (a bare one: Ollama, vLLM) on 127.0.0.1 whose answers follow a
 * script, per prompt and per round: the shared fake vendors' core (a real HTTP server, requests
 * recorded) with a plain `chat.completion` body, as fake-vendors/chat-completions.ts builds it for
 * its `plain` flavour, but with an answer chosen per request instead of one for all.
 */
export async function startScriptedEngine(script: Script): Promise<ScriptedEngine> {
  const asked = new Map<string, number>();
  const textFor = (prompt: string): string => {
    const nth = asked.get(prompt) ?? 0;
    asked.set(prompt, nth + 1);
    const round = Math.floor(nth / script.perRound);
    const named = script.mentions[prompt]?.[round] ?? 0;
    return nth % script.perRound < named ? script.named : script.unnamed;
  };
  const vendor = await startFakeVendor({
    basePath: "/v1",
    serves: (request) => request.method === "POST" && request.path === "/v1/chat/completions",
    notFound: (request) => ({ status: 404, body: openAIErrorBody(404, request, stringField(request.body, "model")) }),
    rateLimitHeaders: () => ({ "retry-after": "1" }),
    errorBody: (status, request) => openAIErrorBody(status, request, stringField(request.body, "model")),
    reply: ({ request }) => {
      const prompt = lastUserText(request.body, "");
      const content = textFor(prompt);
      const promptTokens = tokens(prompt) + 6;
      const body: ChatCompletion = {
        id: `chatcmpl-${base62(29)}`,
        object: "chat.completion",
        created: nowSeconds(),
        model: stringField(request.body, "model") ?? "llama3.1",
        system_fingerprint: `fp_${hex(5)}`,
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: tokens(content),
          total_tokens: promptTokens + tokens(content),
        },
        choices: [
          { index: 0, finish_reason: "stop", logprobs: null, message: { role: "assistant", content, refusal: null } },
        ],
      };
      return { status: 200, body };
    },
  });
  return { url: vendor.url, vendor, asked, stop: () => vendor.stop() };
}
