import { describe, expect, it } from "vitest";
import { botOf } from "../../src/services/traffic/bots.ts";
import { classify, ownHost } from "../../src/services/traffic/classify.ts";
import type { LogRecord } from "../../src/services/traffic/formats/types.ts";
import { BotRanges } from "../../src/services/traffic/ranges.ts";
import { referringEngine } from "../../src/services/traffic/referrers.ts";

const ranges = new BotRanges({
  GPTBot: ["192.0.2.0/25", "2001:db8:f000::/36"],
  "OAI-SearchBot": ["198.51.100.0/24"],
  ClaudeBot: null,
});

const record = (over: Partial<LogRecord>): LogRecord => ({
  at: new Date("2026-11-20T10:00:00Z"),
  ip: "203.0.113.7",
  method: "GET",
  host: "acme.io",
  path: "/pricing",
  query: null,
  status: 200,
  userAgent: "Mozilla/5.0",
  referrer: null,
  ...over,
});

describe("AI bots, their ranges and the engines that refer visits (issue 26)", () => {
  it("names the bot a user agent claims, the specific one first", () => {
    expect(
      botOf("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)")
        ?.name,
    ).toBe("GPTBot");
    expect(botOf("Mozilla/5.0 (compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)")?.name).toBe(
      "OAI-SearchBot",
    );
    expect(botOf("Mozilla/5.0 AppleWebKit/537.36; compatible; ChatGPT-User/1.0; +https://openai.com/bot")?.name).toBe(
      "ChatGPT-User",
    );
    expect(botOf("Mozilla/5.0 (compatible; Claude-SearchBot/1.0; +claude.ai)")?.name).toBe("Claude-SearchBot");
    expect(
      botOf("meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)")?.name,
    ).toBe("Meta-ExternalAgent");
    expect(botOf("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)")?.name).toBe("Bingbot");
    expect(botOf("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Safari/605.1.15")).toBeNull();
    expect(botOf(null)).toBeNull();
  });

  it("verifies a claimed bot against its ranges: inside, outside, or no ranges to check", () => {
    expect(ranges.verify("GPTBot", "192.0.2.77")).toBe("verified");
    expect(ranges.verify("GPTBot", "192.0.2.177")).toBe("spoofed");
    expect(ranges.verify("GPTBot", "2001:db8:f00a::1")).toBe("verified");
    expect(ranges.verify("GPTBot", "::ffff:192.0.2.1")).toBe("verified");
    expect(ranges.verify("GPTBot", "not-an-address")).toBe("spoofed");
    expect(ranges.verify("OAI-SearchBot", "198.51.100.255")).toBe("verified");
    expect(ranges.verify("OAI-SearchBot", "203.0.113.0")).toBe("spoofed");
    expect(ranges.verify("ClaudeBot", "203.0.113.4")).toBe("unverifiable");
    expect(ranges.verify("Bytespider", "203.0.113.4")).toBe("unverifiable");
  });

  // The shipped file holds OpenAI's real ranges: these addresses are only compared, never contacted.
  it("reads the shipped ranges file, dated, with ranges for OpenAI's bots", () => {
    const shipped = BotRanges.load();
    expect(shipped.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(shipped.verify("GPTBot", "20.171.206.10")).toBe("verified");
    expect(shipped.verify("GPTBot", "192.0.2.1")).toBe("spoofed");
    expect(shipped.verify("ClaudeBot", "192.0.2.1")).toBe("unverifiable");
  });

  it("maps referrers and utm_source to engines", () => {
    expect(referringEngine("https://chatgpt.com/", null)).toBe("chatgpt");
    expect(referringEngine("https://www.perplexity.ai/search?q=x", null)).toBe("perplexity");
    expect(referringEngine("https://gemini.google.com/app", null)).toBe("gemini");
    expect(referringEngine("https://www.bing.com/chat?q=x", null)).toBe("copilot");
    expect(referringEngine("https://www.bing.com/search?q=x", null)).toBeNull();
    expect(referringEngine("https://claude.ai/chat/1", null)).toBe("claude");
    expect(referringEngine(null, "ref=1&utm_source=chatgpt.com")).toBe("chatgpt");
    expect(referringEngine("-", "utm_source=perplexity")).toBe("perplexity");
    expect(referringEngine("https://www.google.com/", "utm_source=newsletter")).toBeNull();
    expect(referringEngine("not a url at all", null)).toBeNull();
  });

  it("classifies a request as a bot hit, an AI referral or nothing, keeping no address or agent", () => {
    const domains = ["acme.io"];
    const hit = classify(record({ ip: "192.0.2.9", userAgent: "GPTBot/1.2", status: 404 }), ranges, domains);
    expect(hit).toEqual({
      kind: "bot",
      day: "2026-11-20",
      at: Date.parse("2026-11-20T10:00:00.000Z"),
      host: "acme.io",
      path: "/pricing",
      status: 404,
      bot: "GPTBot",
      verification: "verified",
    });
    expect(JSON.stringify(hit)).not.toContain("192.0.2.9");
    const visit = classify(record({ referrer: "https://chatgpt.com/" }), ranges, domains);
    expect(visit).toEqual({
      kind: "referral",
      day: "2026-11-20",
      host: "acme.io",
      path: "/pricing",
      engine: "chatgpt",
    });
    expect(classify(record({}), ranges, domains)).toEqual({ kind: "ignored" });
    // Another site in the same CDN log is not the brand's.
    expect(classify(record({ host: "other.example", userAgent: "GPTBot/1.2" }), ranges, domains)).toEqual({
      kind: "ignored",
    });
    expect(ownHost("www.acme.io:443", domains)).toBe(true);
    expect(ownHost(null, domains)).toBe(true);
    expect(ownHost("acme.io.evil.example", domains)).toBe(false);
  });
});
