/**
 * robots.txt as RFC 9309 reads it, for one user agent: the group naming it (else `*`), its
 * `Allow`/`Disallow` rules, the longest match deciding and `Allow` winning a tie; `*` and `$` in
 * paths. A group is an agent's when its `User-agent` is the agent's product token (any case),
 * never a part of it. A site without one (4xx, or unreadable) allows everything; one whose
 * robots.txt fails with a 5xx allows nothing (read.ts, traffic/access-check.ts).
 *
 * `readRobotsFile` keeps where each rule stands (its 1-based line), so that an audit can say which
 * line decides, and what a group does as a whole: blocks every page, some, or none.
 */
export interface RobotsRules {
  allows(path: string): boolean;
}

interface RobotsRule {
  allow: boolean;
  pattern: string;
  /** 1-based line of the file. */
  line: number;
  /** The line as written, without its comment: `Disallow: /private`. */
  text: string;
}

/** What a group does as a whole: `blocked` every page, some (`partial`), or none (`allowed`). */
type RobotsVerdict = "allowed" | "partial" | "blocked";

/** The rules one agent follows. */
interface AgentRobots extends RobotsRules {
  /** The `User-agent` line of the group it follows (its own, else `*`), as written; null: none applies. */
  group: { agent: string; line: number } | null;
  rules: readonly RobotsRule[];
  /** Whether `path` may be fetched, and the rule deciding (null: no rule matches, so it may). */
  decide(path: string): { allow: boolean; rule: RobotsRule | null };
  /**
   * The group as a whole, and the rule saying so: for `blocked` the `Disallow` matching every page,
   * for `partial` the first `Disallow` that takes effect, for `allowed` the rule deciding `/` (if any).
   */
  verdict(): { verdict: RobotsVerdict; rule: RobotsRule | null };
}

export interface RobotsFile {
  forAgent(agent: string): AgentRobots;
}

interface Group {
  agents: { name: string; token: string; line: number }[];
  rules: RobotsRule[];
}

function matcher(pattern: string): RegExp {
  const anchored = pattern.endsWith("$");
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}${anchored ? "$" : ""}`);
}

/** `/`, `/*`, `*`, `/*$`…: a pattern every path matches. */
const MATCHES_EVERY_PATH = /^(?:\/\**|\/?\*+\$?)$/;

function productToken(agent: string): string {
  return (/^[A-Za-z_-]+/.exec(agent.trim())?.[0] ?? "").toLowerCase();
}

/** Reads a robots.txt once; each agent's rules are then chosen from it. */
export function readRobotsFile(text: string): RobotsFile {
  const groups: Group[] = [];
  let current: Group | null = null;
  let lastWasAgent = false;
  // RFC 9309 ends a line with CR, LF or CRLF; a byte-order mark is not part of the first line.
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  for (const [index, rawLine] of lines.entries()) {
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
      // "SightlineBot/1.0" names SightlineBot too; "*" is every agent's.
      current.agents.push({ name: value, token: value === "*" ? "*" : productToken(value), line: index + 1 });
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (current === null) continue;
    if (field === "allow" || field === "disallow") {
      // An empty Disallow allows everything; it is no rule at all.
      if (value !== "") current.rules.push({ allow: field === "allow", pattern: value, line: index + 1, text: line });
    }
  }
  return {
    forAgent(agent) {
      // "SightlineBot/1.0 (+https://…)" → "sightlinebot".
      const token = productToken(agent);
      const own = groups.filter((group) => group.agents.some((a) => a.token !== "*" && a.token === token));
      const chosen = own.length > 0 ? own : groups.filter((group) => group.agents.some((a) => a.token === "*"));
      const first = chosen[0]?.agents.find((a) => (own.length > 0 ? a.token === token : a.token === "*"));
      // Groups naming the same agent are one group (RFC 9309 §2.2.1).
      return agentRobots(
        first === undefined ? null : { agent: first.name, line: first.line },
        chosen.flatMap((group) => group.rules),
      );
    },
  };
}

function agentRobots(group: AgentRobots["group"], rules: RobotsRule[]): AgentRobots {
  const compiled = rules.map((rule) => ({ rule, regex: matcher(rule.pattern) }));
  const decide = (path: string) => {
    let best: RobotsRule | null = null;
    for (const { rule, regex } of compiled) {
      if (!regex.test(path)) continue;
      const length = rule.pattern.length;
      if (best === null || length > best.pattern.length || (length === best.pattern.length && rule.allow)) best = rule;
    }
    return { allow: best === null || best.allow, rule: best };
  };
  return {
    group,
    rules,
    decide,
    allows: (path) => decide(path).allow,
    verdict() {
      // A Disallow with an Allow of the same pattern never decides anything: the Allow wins the tie.
      const effective = rules.filter((r) => !r.allow && !rules.some((a) => a.allow && a.pattern === r.pattern));
      if (effective.length === 0) return { verdict: "allowed", rule: decide("/").rule };
      // The longest Disallow matching every page, unless some Allow is as long (and so wins somewhere).
      const everything = effective
        .filter((r) => MATCHES_EVERY_PATH.test(r.pattern))
        .sort((a, b) => b.pattern.length - a.pattern.length || a.line - b.line)[0];
      if (everything !== undefined && !rules.some((r) => r.allow && r.pattern.length >= everything.pattern.length)) {
        return { verdict: "blocked", rule: everything };
      }
      const firstEffective = [...effective].sort((a, b) => a.line - b.line)[0] ?? null;
      return { verdict: "partial", rule: firstEffective };
    },
  };
}

export function parseRobots(text: string, agent: string): RobotsRules {
  return readRobotsFile(text).forAgent(agent);
}

export const ALLOW_ALL: RobotsRules = { allows: () => true };
export const DISALLOW_ALL: RobotsRules = { allows: () => false };
