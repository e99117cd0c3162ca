/**
 * robots.txt as RFC 9309 reads it, for one user agent: the group naming it (else `*`), its
 * `Allow`/`Disallow` rules, the longest match deciding and `Allow` winning a tie; `*` and `$` in
 * paths. A group is ours when its `User-agent` is our product token (`SightlineBot`, any case),
 * never a part of it. A site without one (4xx, or unreadable) allows everything; one whose
 * robots.txt fails with a 5xx allows nothing (read.ts).
 */
export interface RobotsRules {
  allows(path: string): boolean;
}

interface Rule {
  allow: boolean;
  pattern: string;
}

function matcher(pattern: string): RegExp {
  const anchored = pattern.endsWith("$");
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}${anchored ? "$" : ""}`);
}

export function parseRobots(text: string, agent: string): RobotsRules {
  const groups: { agents: string[]; rules: Rule[] }[] = [];
  let current: { agents: string[]; rules: Rule[] } | null = null;
  let lastWasAgent = false;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/#.*$/, "").trim();
    const match = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (match === null) continue;
    const field = (match[1] ?? "").toLowerCase();
    const value = (match[2] ?? "").trim();
    if (field === "user-agent") {
      if (!lastWasAgent || current === null) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (current === null) continue;
    if (field === "allow" || field === "disallow") {
      // An empty Disallow allows everything; it is no rule at all.
      if (value !== "") current.rules.push({ allow: field === "allow", pattern: value });
    }
  }
  // "SightlineBot/1.0 (+https://…)" → "sightlinebot"; "User-agent: SightlineBot/1.0" names it too.
  const token = productToken(agent);
  const own = groups.filter((group) => group.agents.some((a) => a !== "*" && productToken(a) === token));
  const chosen = own.length > 0 ? own : groups.filter((group) => group.agents.includes("*"));
  const rules = chosen.flatMap((group) => group.rules).map((rule) => ({ ...rule, regex: matcher(rule.pattern) }));
  return {
    allows(path) {
      let best: { allow: boolean; length: number } | null = null;
      for (const rule of rules) {
        if (!rule.regex.test(path)) continue;
        const length = rule.pattern.length;
        if (best === null || length > best.length || (length === best.length && rule.allow)) {
          best = { allow: rule.allow, length };
        }
      }
      return best === null || best.allow;
    },
  };
}

function productToken(agent: string): string {
  return (/^[A-Za-z_-]+/.exec(agent.trim())?.[0] ?? "").toLowerCase();
}

export const ALLOW_ALL: RobotsRules = { allows: () => true };
export const DISALLOW_ALL: RobotsRules = { allows: () => false };
