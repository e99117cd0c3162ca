import type { ServiceContext } from "../context.ts";
import { fold } from "../projects/normalize-text.ts";
import { windowAnswers } from "./answers.ts";

/** How far back proposing reads the brand's answers. */
const PROPOSE_DAYS = 90;
const DAY_MS = 86_400_000;

/** Words too common to tie a prompt to a change. */
const STOP = new Set(
  "about after also best does from have into more most page pages site than that their them then there these they this what when which with your www http https html index".split(
    " ",
  ),
);

/** "Pricing" and "prices" meet at "pric": a crude stem, enough to match a path's words to a question's. */
const stem = (word: string) => word.replace(/(ings|ing|ies|es|ed|s|e)$/, "");

/**
 * The topics of the pages brands change most, each as words people ask with: a pricing page
 * answers "how much does it cost". A word of a group stands for every word of it (stemmed).
 */
const TOPICS = [
  ["pricing", "price", "cost", "costs", "plans", "cheap", "cheapest", "expensive", "afford", "affordable", "free"],
  ["integration", "integrations", "integrate", "connect", "connects", "plugin", "plugins", "api"],
  ["review", "reviews", "rating", "ratings", "rated", "testimonial", "testimonials", "reliable"],
  ["compare", "comparison", "versus", "alternative", "alternatives", "competitor", "competitors"],
  ["security", "secure", "compliance", "compliant", "privacy", "gdpr", "soc2"],
  ["feature", "features", "capabilities", "functionality"],
  ["support", "help", "helpdesk", "customer", "service"],
].map((group) => group.map(stem));

export function topicWords(texts: readonly string[]): Set<string> {
  const words = new Set<string>();
  for (const text of texts) {
    // "How much" asks for a price as plainly as "price" does.
    const folded = fold(text).replace(/\bhow much\b/g, "price");
    for (const word of folded.split(/[^\p{L}\p{N}]+/u)) {
      if (word.length < 3 || STOP.has(word)) continue;
      const stemmed = stem(word);
      if (word.length >= 4) words.add(stemmed);
      for (const group of TOPICS) if (group.includes(stemmed)) for (const other of group) words.add(other);
    }
  }
  return words;
}

/** A URL's path words ("/pricing/enterprise-plans" → pricing, enterprise, plans). */
export function pathWords(url: string): string[] {
  try {
    return [decodeURIComponent(new URL(url).pathname)];
  } catch {
    return [];
  }
}

interface ProposeInput {
  projectId: string;
  prompts: readonly string[];
  engines: readonly string[];
  pages: readonly string[];
  words: Set<string>;
  /** The most prompts proposed (the rest are the controls). */
  most: number;
}

/**
 * The treated prompts Sightline proposes for a change (issue 27): those whose answers of the last
 * 90 days cite a changed page (or the placement), most cited first, then those sharing a word with
 * the changed pages' paths or the change's title. Each prompt's score is the share of its answers
 * citing a changed page, plus one half when it shares a word.
 */
export async function proposePrompts(ctx: ServiceContext, input: ProposeInput): Promise<string[]> {
  const now = ctx.clock.now().getTime();
  const answers = await windowAnswers(ctx, {
    projectId: input.projectId,
    treated: input.prompts,
    control: [],
    engines: input.engines,
    pages: input.pages,
    changedAt: now,
    from: now - PROPOSE_DAYS * DAY_MS,
    to: now + 1,
  });
  const cites = new Map<string, { cited: number; n: number }>();
  for (const answer of answers) {
    const tally = cites.get(answer.prompt) ?? { cited: 0, n: 0 };
    tally.n++;
    if (answer.cited) tally.cited++;
    cites.set(answer.prompt, tally);
  }
  const scored = input.prompts.map((prompt, index) => {
    const tally = cites.get(fold(prompt));
    const share = tally === undefined ? 0 : tally.cited / tally.n;
    const shares = [...topicWords([prompt])].some((word) => input.words.has(word));
    return { prompt, index, score: share + (shares ? 0.5 : 0) };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, input.most)
    .map((s) => s.prompt);
}
