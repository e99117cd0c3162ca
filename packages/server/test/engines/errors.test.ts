import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { toFailure } from "../../src/services/engines/errors.ts";

// The vendors' own error classes, as their SDKs throw them: openai 6 names its connection errors
// "Error", so the class, not the name, says the connection was lost.
describe("engine errors as failure values", () => {
  it("retries a lost connection, whatever the SDK names its error", () => {
    for (const error of [
      new OpenAI.APIConnectionError({ message: undefined }),
      new Anthropic.APIConnectionError({ message: undefined }),
    ]) {
      expect(toFailure("chatgpt", error, false)).toMatchObject({
        ok: false,
        error: { message: "chatgpt: connection failed", retryable: true },
      });
    }
  });

  it("retries a vendor's timeout as a timeout", () => {
    for (const error of [new OpenAI.APIConnectionTimeoutError(), new Anthropic.APIConnectionTimeoutError()]) {
      expect(toFailure("claude", error, false)).toMatchObject({
        error: { message: "claude did not answer in time", retryable: true },
      });
    }
  });

  it("gives up on a 401 and retries a 503", () => {
    const unauthorized = OpenAI.APIError.generate(401, { error: { message: "bad key" } }, "bad key", new Headers());
    expect(toFailure("chatgpt", unauthorized, false)).toMatchObject({ error: { retryable: false, status: 401 } });
    const unavailable = OpenAI.APIError.generate(503, undefined, "overloaded", new Headers({ "retry-after": "7" }));
    expect(toFailure("chatgpt", unavailable, false)).toMatchObject({
      error: { retryable: true, status: 503, retryAfter: 7 },
    });
  });
});
