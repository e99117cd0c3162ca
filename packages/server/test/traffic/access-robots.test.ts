import { describe, expect, it } from "vitest";
import { verdictsOf } from "../../src/services/traffic/access-check.ts";
import { BOTS } from "../../src/services/traffic/bots.ts";
import { parseRobots, readRobotsFile } from "../../src/services/websites/robots.ts";

/** A robots.txt with a comment, blank lines and groups of every kind; line numbers matter here. */
const ROBOTS = [
  "# Acme's rules for crawlers", // 1
  "User-agent: GPTBot", // 2
  "Allow: /", // 3
  "", // 4
  "# Search bots: not yet", // 5
  "User-agent: OAI-SearchBot", // 6
  "Disallow: / # everything", // 7
  "", // 8
  "User-agent: PerplexityBot", // 9
  "Disallow: /private/", // 10
  "Allow: /private/press", // 11
  "", // 12
  "User-agent: *", // 13
  "Disallow: /admin", // 14
].join("\r\n");

describe("robots.txt, read for an audit: the deciding rule, its line, and the group as a whole (RFC 9309)", () => {
  const file = readRobotsFile(ROBOTS);

  it("says which group each agent follows, and which rule decides a path, with its 1-based line", () => {
    const search = file.forAgent("OAI-SearchBot");
    expect(search.group).toEqual({ agent: "OAI-SearchBot", line: 6 });
    expect(search.decide("/pricing")).toEqual({
      allow: false,
      rule: { allow: false, pattern: "/", line: 7, text: "Disallow: /" },
    });
    const perplexity = file.forAgent("perplexitybot/1.0");
    expect(perplexity.group).toEqual({ agent: "PerplexityBot", line: 9 });
    expect(perplexity.decide("/private/press/2026")).toMatchObject({ allow: true, rule: { line: 11 } });
    expect(perplexity.decide("/private/plans")).toMatchObject({ allow: false, rule: { line: 10 } });
    expect(perplexity.decide("/")).toEqual({ allow: true, rule: null });
    // A bot without a group of its own follows `*`, and only it.
    const claude = file.forAgent("ClaudeBot");
    expect(claude.group).toEqual({ agent: "*", line: 13 });
    expect(claude.decide("/admin/users")).toMatchObject({ allow: false, rule: { line: 14, text: "Disallow: /admin" } });
    expect(file.forAgent("GPTBot").decide("/admin")).toMatchObject({ allow: true, rule: { line: 3 } });
  });

  it("tells a group that blocks everything from one that blocks some pages or none", () => {
    expect(file.forAgent("OAI-SearchBot").verdict()).toEqual({
      verdict: "blocked",
      rule: { allow: false, pattern: "/", line: 7, text: "Disallow: /" },
    });
    expect(file.forAgent("GPTBot").verdict()).toMatchObject({
      verdict: "allowed",
      rule: { line: 3, text: "Allow: /" },
    });
    expect(file.forAgent("PerplexityBot").verdict()).toMatchObject({ verdict: "partial", rule: { line: 10 } });
    expect(file.forAgent("ClaudeBot").verdict()).toMatchObject({ verdict: "partial", rule: { line: 14 } });

    const verdict = (text: string) => {
      const { verdict: v, rule } = readRobotsFile(text).forAgent("ClaudeBot").verdict();
      return [v, rule?.line ?? null];
    };
    // Every spelling of "every page".
    for (const pattern of ["/", "/*", "*", "/*$", "/**"]) {
      expect(verdict(`User-agent: *\nDisallow: ${pattern}\n`), pattern).toEqual(["blocked", 2]);
    }
    // The home page alone, or everything but what an Allow opens again, is a partial block.
    expect(verdict("User-agent: *\nDisallow: /$\n")).toEqual(["partial", 2]);
    expect(verdict("User-agent: *\nDisallow: /\nAllow: /blog\n")).toEqual(["partial", 2]);
    expect(verdict("User-agent: *\nDisallow: /*\nAllow: /$\n")).toEqual(["partial", 2]);
    // An Allow shorter than the block never wins: still blocked.
    expect(verdict("User-agent: *\nDisallow: /*\nAllow: /\n")).toEqual(["blocked", 2]);
    // A Disallow undone by an Allow of the same pattern, an empty Disallow, no group at all: allowed.
    expect(verdict("User-agent: *\nDisallow: /x\nAllow: /x\n")).toEqual(["allowed", null]);
    expect(verdict("User-agent: *\nDisallow:\n")).toEqual(["allowed", null]);
    expect(verdict("User-agent: Googlebot\nDisallow: /\n")).toEqual(["allowed", null]);
    expect(verdict("")).toEqual(["allowed", null]);
    // Groups naming the same agent are one; the longest "every page" rule is the one shown.
    expect(verdict("User-agent: ClaudeBot\nDisallow: /a\n\nUser-agent: claudebot\nDisallow: /*\n")).toEqual([
      "blocked",
      5,
    ]);
  });

  it("counts lines as RFC 9309 ends them (CR, LF, CRLF), after a byte-order mark", () => {
    const text = "\uFEFFUser-agent: *\rDisallow: /a\r\nDisallow: /b\nDisallow: /\n";
    const rules = readRobotsFile(text).forAgent("CCBot");
    expect(rules.group).toEqual({ agent: "*", line: 1 });
    expect(rules.rules.map((r) => r.line)).toEqual([2, 3, 4]);
    expect(rules.verdict()).toMatchObject({ verdict: "blocked", rule: { line: 4 } });
  });

  it("keeps parseRobots as its callers know it", () => {
    const rules = parseRobots("User-agent: *\nDisallow: /private\nAllow: /private/ok$\n", "SightlineBot");
    expect([rules.allows("/"), rules.allows("/private/x"), rules.allows("/private/ok")]).toEqual([true, false, true]);
    expect(parseRobots("User-agent: SightlineBot-News\nDisallow: /\n", "SightlineBot/1.0").allows("/")).toBe(true);
  });

  it("gives every AI bot a verdict with the rule and the group in words", () => {
    const verdicts = verdictsOf(ROBOTS);
    expect(verdicts.map((v) => v.bot)).toEqual(BOTS.map((b) => b.name));
    const of = (name: string) => verdicts.find((v) => v.bot === name);
    expect(of("OAI-SearchBot")).toEqual({
      bot: "OAI-SearchBot",
      verdict: "blocked",
      reason: "Disallow: / (line 7) in the group for OAI-SearchBot blocks every page",
      group: "OAI-SearchBot",
      rule: { line: 7, text: "Disallow: /" },
    });
    expect(of("GPTBot")).toMatchObject({ verdict: "allowed", group: "GPTBot", rule: { line: 3 } });
    expect(of("PerplexityBot")).toMatchObject({ verdict: "partial", group: "PerplexityBot", rule: { line: 10 } });
    expect(of("Bytespider")).toMatchObject({ verdict: "partial", group: "*", rule: { line: 14 } });
  });
});
