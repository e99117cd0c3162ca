import { type Language, type LanguageRules, RULES } from "./lexicon.ts";
import type { Occurrence } from "./mentions.ts";
import { fold, matches } from "./normalize.ts";
import { type Line, splitLines } from "./structure.ts";

/**
 * The brand's tone and stance in one answer (DESIGN.md §7), per language. What is read: the
 * sentences that name the brand (only the clauses about it when other brands share the
 * sentence), the rest of a list item it leads, and the sentences right after that refer back to
 * it ("It", "Elle", "Sie", "同社"). Within those, evaluative words from the language's lexicon,
 * flipped by a negator before them (after them in Japanese), strengthened by an intensifier,
 * weighted more after a contrast word ("but": the clause after it is the verdict), and turned
 * round when the brand follows "than" ("X is cheaper than Brand" is against the brand).
 */
export interface Tone {
  sentiment: number;
  stance: "recommended" | "mentioned" | "warned";
}

interface Compiled {
  rules: LanguageRules;
  cjk: boolean;
  /** Japanese negates after the word ("使いやすくない"); the others before it. */
  negatesAfter: boolean;
  words: RegExp;
  weights: { pattern: RegExp; weight: number }[];
  negator: RegExp;
  intensifier: RegExp;
  too: RegExp;
  contrast: RegExp;
  concessive: RegExp;
  than: RegExp;
  compared: RegExp;
  referent: RegExp;
  nouns: RegExp;
  both: RegExp;
  warn: RegExp;
  recommend: RegExp;
  /** A line that opens with a verdict's label ("**Recommendation:**"), up to the end of the label. */
  recommendLabel: RegExp;
  warnLabel: RegExp;
}

/** Splits a pattern at its top-level "|" (fragments keep their own groups). */
function alternatives(pattern: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      out.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  out.push(pattern.slice(start));
  return out.filter((p) => p !== "");
}

/**
 * Lexicon entries are written like the folded text; Japanese ones are folded here (full-width
 * forms), and an adjective's final い also matches its く and さ forms ("使いやすくない").
 */
function folded(pattern: string, cjk: boolean): string {
  if (!cjk) return pattern;
  return alternatives(fold(pattern))
    .map((entry) => (entry.endsWith("い") ? `${entry.slice(0, -1)}(?:い|く|さ)` : entry))
    .join("|");
}

/**
 * One alternation of many words tries each at every word start; grouped by first letter, only
 * the group of the letter at hand is tried (about 20× fewer attempts on a long answer).
 */
function byFirstLetter(patterns: string[]): string {
  const groups = new Map<string, string[]>();
  const rest: string[] = [];
  for (const pattern of patterns) {
    const first = pattern[0] ?? "";
    if (/[\p{L}]/u.test(first) && !/^[?*+{]/.test(pattern.slice(1, 2))) {
      const group = groups.get(first) ?? [];
      group.push(pattern.slice(1));
      groups.set(first, group);
    } else rest.push(pattern);
  }
  const factored = [...groups.entries()].map(([first, tails]) => `${first}(?:${tails.join("|")})`);
  return [...factored, ...rest].join("|");
}

function compile(language: Language): Compiled {
  const rules = RULES[language];
  const cjk = language === "ja" || language === "zh";
  const before = cjk ? "" : "(?<![\\p{L}\\p{N}])";
  const after = cjk ? "" : "(?![\\p{L}\\p{N}])";
  const all = rules.words
    .flatMap(([pattern]) => alternatives(folded(pattern, cjk)))
    .sort((a, b) => b.length - a.length);
  const bounded = (pattern: string, flags = "gu") =>
    new RegExp(`${before}(?:${byFirstLetter(alternatives(folded(pattern, cjk)))})${after}`, flags);
  return {
    rules,
    cjk,
    negatesAfter: language === "ja",
    words: new RegExp(`${before}(?:${byFirstLetter(all)})${after}`, "gu"),
    weights: [...rules.words]
      .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
      .map(([pattern, weight]) => ({ pattern: new RegExp(`^(?:${folded(pattern, cjk)})$`, "u"), weight })),
    negator: bounded(rules.negators, "u"),
    intensifier: bounded(rules.intensifiers, "u"),
    too: language === "ja" ? /すぎ/u : language === "zh" ? /太$/u : /(?<![\p{L}])(?:too|trop|zu|demasiado)\s+$/u,
    contrast: bounded(rules.contrast),
    concessive: bounded(rules.concessive),
    than: bounded(rules.than, "u"),
    compared: bounded(rules.compared, "u"),
    nouns: bounded(rules.nouns, "u"),
    referent: new RegExp(`^[\\s*_"'(\\-]*(?:${alternatives(folded(rules.referents, cjk)).join("|")})${after}`, "u"),
    both: new RegExp(`^[\\s*_"'(\\-]*(?:${alternatives(folded(rules.both, cjk)).join("|")})${after}`, "u"),
    warn: bounded(rules.warn, "u"),
    recommend: bounded(rules.recommend, "u"),
    recommendLabel: label(rules.labels.recommend, cjk),
    warnLabel: label(rules.labels.warn, cjk),
  };
}

/** A label at the start of a line: list marks and emphasis around it, then ":" (or a dash). */
function label(pattern: string, cjk: boolean): RegExp {
  return new RegExp(
    `^[\\s>#*_\\-+•\\d.)]*(?:${alternatives(folded(pattern, cjk)).join("|")})[\\s*_]*(?:[:：]|\\s-\\s)[\\s*_]*`,
    "u",
  );
}

/** A pick in a list the prompt asked for counts this much praise. */
const PICK_BONUS = 0.9;

const compiled = new Map<Language, Compiled>();

function rulesFor(language: Language): Compiled {
  let rules = compiled.get(language);
  if (rules === undefined) {
    rules = compile(language);
    compiled.set(language, rules);
  }
  return rules;
}

const STOPWORDS: Record<Exclude<Language, "ja" | "zh">, RegExp> = {
  en: /\b(?:the|and|is|with|for|of|it|you|are|to)\b/g,
  fr: /\b(?:le|la|les|des|est|et|pour|une|avec|vous|du)\b/g,
  de: /\b(?:der|die|das|und|ist|mit|fur|nicht|sie|ein|eine|auch)\b/g,
  es: /\b(?:el|los|las|es|y|para|una|con|del|que|por)\b/g,
};

const ADVICE =
  /\b(?:best|top|recommend\w*|should|which|what\b.*\b(?:use|choose|pick|buy)|good for|alternatives?|vs\.?|versus|compare|or\b|worth|meilleure?s?|recommand\w*|quel(?:le)?s?|lequel|laquelle|vaut|conseill\w*|beste[nmrs]?|empfehl\w*|welche[nmrs]?|lohnt|oder|mejor(?:es)?|recomiend\w*|recomend\w*|cual(?:es)?|vale la pena|o)\b|おすすめ|どれ|どちら|比較|推荐|哪|最好|值得|还是/u;

/** Whether the prompt asks for advice (a pick, a comparison), so that a favourable answer recommends. */
export function asksForAdvice(folded: string | undefined): boolean {
  return folded !== undefined && ADVICE.test(folded);
}

/** The answer's language: the project's when set, else guessed from kana and common words. */
export function detectLanguage(folded: string, declared: string | null): Language {
  const code = declared?.slice(0, 2).toLowerCase();
  if (code !== undefined && Object.hasOwn(RULES, code)) return code as Language;
  if (/[\p{sc=Hiragana}\p{sc=Katakana}]/u.test(folded.slice(0, 2000))) return "ja";
  if (/\p{sc=Han}{4}/u.test(folded.slice(0, 2000))) return "zh";
  const sample = folded.slice(0, 1500);
  let bestLanguage: Language = "en";
  let best = 0;
  for (const [language, pattern] of Object.entries(STOPWORDS) as [Language, RegExp][]) {
    const count = sample.match(pattern)?.length ?? 0;
    if (count > best) {
      best = count;
      bestLanguage = language;
    }
  }
  return bestLanguage;
}

interface Span {
  start: number;
  end: number;
}

function sentences(text: string): (Span & { line: number })[] {
  const out: (Span & { line: number })[] = [];
  const boundary = /[.!?](?=\s|$)|[。！？]|\n/gu;
  let start = 0;
  let line = 0;
  for (const match of matches(boundary, text)) {
    const end = match.index + match[0].length;
    if (text.slice(start, end).trim() !== "") out.push({ start, end, line });
    if (match[0] === "\n") line++;
    start = end;
  }
  if (text.slice(start).trim() !== "") out.push({ start, end: text.length, line });
  return out;
}

/** The occurrences that start inside the span (occurrences are sorted by start). */
function within(occurrences: Occurrence[], span: Span): Occurrence[] {
  let low = 0;
  let high = occurrences.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((occurrences[mid]?.start ?? 0) < span.start) low = mid + 1;
    else high = mid;
  }
  const out: Occurrence[] = [];
  for (let i = low; i < occurrences.length; i++) {
    const o = occurrences[i];
    if (o === undefined || o.start >= span.end) break;
    out.push(o);
  }
  return out;
}

/** Clauses of a sentence: split at ";", ":", a dash between spaces, and before contrast words. */
const NOT_ONLY = /\b(?:not only|not just|non seulement|nicht nur|no solo|no solamente)\b/u;

// A comma before CJK needs no space (full-width commas are plain ones after NFKC).
const CUTS = /[;:；]|\s-\s|,\s|,(?=[\u0080-\uFFFF])/gu;

interface Clause extends Span {
  contrast: boolean;
  conceded?: boolean;
}

function clauses(text: string, span: Span, rules: Compiled): Clause[] {
  const part = text.slice(span.start, span.end);
  const cuts: { at: number; kind: "plain" | "contrast" | "concession" }[] = [];
  for (const m of matches(CUTS, part)) cuts.push({ at: m.index + m[0].length, kind: "plain" });
  for (const m of matches(rules.contrast, part)) if (m.index > 0) cuts.push({ at: m.index, kind: "contrast" });
  for (const m of matches(rules.concessive, part)) cuts.push({ at: m.index, kind: "concession" });
  cuts.sort((a, b) => a.at - b.at);
  const out: Clause[] = [];
  let start = 0;
  let kind: "plain" | "contrast" | "concession" = "plain";
  const push = (end: number) =>
    out.push({
      start: span.start + start,
      end: span.start + end,
      contrast: kind === "contrast",
      conceded: kind === "concession",
    });
  for (const cut of cuts) {
    if (cut.at > start) push(cut.at);
    if (cut.at >= start) {
      start = cut.at;
      kind = cut.kind;
    }
  }
  push(part.length);
  // The clause a contrast word answers weighs less: "powerful, but too expensive" is a complaint;
  // so does what a concession grants ("although its network is thin").
  for (let i = 0; i + 1 < out.length; i++) {
    const clause = out[i];
    if (clause !== undefined && out[i + 1]?.contrast === true && !clause.contrast) clause.conceded = true;
  }
  return out;
}

/** The polarity of one clause for the brand, and whether it warns against or recommends it. */
function scoreClause(text: string, clause: Span, rules: Compiled, inverted: number | null) {
  const part = text.slice(clause.start, clause.end);
  let positive = 0;
  let negative = 0;
  const count = (index: number, length: number, found: number) => {
    let weight = found;
    const before = part.slice(Math.max(0, index - 40), index);
    const window = rules.negatesAfter
      ? part.slice(index + length, index + length + 8)
      : rules.cjk
        ? part.slice(Math.max(0, index - 3), index)
        : lastWords(before, 4);
    // "not the best" is a mild complaint; "not bad", "no complaints" are praise; "not only" negates nothing.
    if (rules.negator.test(window) && !NOT_ONLY.test(window)) weight = weight < 0 ? -weight : -weight * 0.5;
    if (rules.intensifier.test(rules.cjk ? part.slice(Math.max(0, index - 4), index) : lastWords(before, 2))) {
      weight *= 1.5;
    }
    // "too expensive", "too simple", "高すぎ": always against, and strongly.
    const tooWindow = rules.negatesAfter ? part.slice(index + length, index + length + 3) : before;
    if (rules.too.test(tooWindow)) weight = -Math.abs(weight) * 1.5;
    // The evaluation before "than <brand>" is about the other brand, so the other way for this one.
    // (In Japanese the evaluation follows "ブランドより".)
    if (inverted !== null && (rules.cjk ? clause.start + index >= inverted : clause.start + index < inverted)) {
      weight = -weight;
    }
    if (weight > 0) positive += weight;
    else negative -= weight;
  };
  for (const match of matches(rules.words, part)) {
    const weight = rules.weights.find((w) => w.pattern.test(match[0]))?.weight ?? 0;
    if (weight !== 0) count(match.index, match[0].length, weight);
  }
  const warnAt = part.search(rules.warn);
  const warn = warnAt >= 0 && (rules.cjk || !rules.negator.test(lastWords(part.slice(0, warnAt), 2)));
  const recommendAt = inverted === null && warnAt < 0 ? part.search(rules.recommend) : -1;
  const recommend = recommendAt >= 0 && (rules.cjk || !rules.negator.test(lastWords(part.slice(0, recommendAt), 3)));
  return { positive, negative, warn, recommend };
}

const isSpace = (code: number) => code === 32 || code === 10 || code === 9 || code === 13;

/** The last `count` whitespace-separated words of `text`, found from the end (no split of the whole). */
function lastWords(text: string, count: number): string {
  let end = text.length;
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  let i = end;
  let words = 0;
  while (i > 0) {
    if (isSpace(text.charCodeAt(i - 1))) {
      words++;
      if (words === count) break;
      while (i > 0 && isSpace(text.charCodeAt(i - 1))) i--;
      continue;
    }
    i--;
  }
  return text.slice(i, end);
}

/**
 * The brand's tone: null unless it is named. `text` is the folded answer; `own` the brand's
 * counted occurrences, `others` those of the competitors.
 */
export function brandTone(
  text: string,
  own: Occurrence[],
  others: Occurrence[],
  language: Language,
  advice: boolean,
  askedAbout: boolean,
): Tone | null {
  if (own.length === 0) return null;
  const rules = rulesFor(language);
  let positive = 0;
  let negative = 0;
  let warned = false;
  let recommended = false;
  let owner: "own" | "other" | null = null;
  let ownerLine = -1;
  const lines = splitLines(text);
  const add = (clause: Clause, weight: number, inverted: number | null) => {
    const score = scoreClause(text, clause, rules, inverted);
    const w = weight * (clause.contrast ? 1.6 : 1) * (clause.conceded === true ? 0.6 : 1);
    positive += score.positive * w;
    negative += score.negative * w;
    warned ||= score.warn;
    recommended ||= score.recommend;
  };
  // "**Recommendation:** choose Acme": a verdict's label, then the brand it is about.
  for (const line of lines) {
    const body = text.slice(line.start, line.end);
    const pick = rules.recommendLabel.exec(body);
    const warning = pick === null ? rules.warnLabel.exec(body) : null;
    const found = pick ?? warning;
    if (found === null) continue;
    const from = line.start + found[0].length;
    const first = [
      ...within(own, { start: from, end: line.end }),
      ...within(others, { start: from, end: line.end }),
    ].sort((a, b) => a.start - b.start)[0];
    if (first === undefined || !own.includes(first)) continue;
    if (pick !== null) {
      recommended = true;
      positive += 2;
    } else {
      warned = true;
      negative += 2;
    }
  }
  // "I'd go with Kwik Fit rather than Halfords": the brand is what is passed over.
  for (const o of own) {
    const before = text.slice(Math.max(0, o.start - 30), o.start);
    if (PASSED_OVER[language].test(before)) {
      negative += 1.5;
      break;
    }
  }
  const sections = ownSections(text, lines, own, others);
  const ownItems = new Set<number>();
  lines.forEach((line, index) => {
    if (line.item === null) return;
    const first = [...within(own, line), ...within(others, line)].sort((a, b) => a.start - b.start)[0];
    if (first !== undefined && own.includes(first)) ownItems.add(index);
  });
  let seen = false;
  for (const sentence of sentences(text)) {
    const mine = within(own, sentence);
    // A brand named only as the object of a comparison ("simpler than HubSpot's") is not what
    // the sentence is about.
    // In a list item the brand leads, other brands are what it is compared with.
    const named = within(others, sentence);
    const inOwnSection = sections.has(sentence.line);
    const about = mine.length > 0 || owner === "own" || inOwnSection;
    const theirs = ownItems.has(sentence.line)
      ? []
      : about
        ? named.filter((o) => !comparedWith(text, sentence, o, rules))
        : named;
    const body = text.slice(sentence.start, sentence.end);
    if (mine.length > 0 && theirs.length === 0) {
      for (const clause of clauses(text, sentence, rules)) add(clause, 1, thanBrand(text, clause, mine, rules));
      owner = "own";
      ownerLine = sentence.line;
    } else if (mine.length > 0) {
      // Shared with competitors: what is said from the brand's name up to another brand's (not
      // one joined to it by "and"/"or": those share the verdict); after "than Acme", the other
      // way round.
      let current: "own" | "other" | null = null;
      for (const clause of clauses(text, sentence, rules)) {
        const mineHere = within(mine, clause);
        const theirsHere = within(theirs, clause);
        const thanAt = thanBrand(text, clause, mineHere, rules);
        if (thanAt !== null) {
          add(clause, 1, thanAt);
          // "Lidl is cheaper than Dia, and its bread is better": what follows is about the other.
          current = "other";
          continue;
        } else if (mineHere.length > 0 && theirsHere.length === 0) add(clause, 1, null);
        else if (mineHere.length > 0) {
          const from = mineHere[0]?.start ?? clause.start;
          let end = from;
          let next = clause.end;
          for (const o of [...mineHere, ...theirsHere].sort((a, b) => a.start - b.start)) {
            if (o.start < from) continue;
            if (o.start > end && !JOINED.test(text.slice(end, o.start))) {
              next = mineHere.includes(o) ? clause.end : o.start;
              if (!mineHere.includes(o)) break;
            }
            end = o.end;
          }
          add({ ...clause, start: from, end: next }, 1, null);
        } else if (theirsHere.length === 0 && current === "own") add(clause, 1, null);
        if (mineHere.length > 0 || theirsHere.length > 0) {
          const last = [...mineHere, ...theirsHere].sort((a, b) => b.start - a.start)[0];
          current = last !== undefined && mineHere.includes(last) ? "own" : "other";
        }
      }
      owner = null;
    } else if (theirs.length > 0) {
      owner = "other";
    } else if (inOwnSection || ownItems.has(sentence.line)) {
      for (const clause of clauses(text, sentence, rules)) add(clause, 1, null);
    } else if (
      (owner === "own" &&
        (rules.referent.test(body) || rules.nouns.test(body) || (rules.cjk && !paragraphBreak(text, sentence)))) ||
      (seen && rules.both.test(body))
    ) {
      for (const clause of clauses(text, sentence, rules)) add(clause, 0.8, null);
    } else if ((others.length === 0 || askedAbout) && theirs.length === 0 && body.trim() !== "") {
      // An answer that names no other tracked brand is about this one throughout.
      for (const clause of clauses(text, sentence, rules)) add(clause, 0.7, null);
    } else if (owner === "own" && sentence.line === ownerLine && REPORTED[language].test(body)) {
      // What people report, in the paragraph about the brand, is about it ("Users report outages.").
      for (const clause of clauses(text, sentence, rules)) add(clause, 0.8, null);
    } else if (sentence.line !== ownerLine || body.trim() === "") {
      owner = null;
    }
    seen ||= mine.length > 0;
  }
  // A warning in words is a verdict against the brand, whatever the praise around it.
  if (warned) negative += 2;
  // A place among the picks of a list the prompt asked for ("best", "which") is praise, unless it is criticised.
  if (advice && ownItems.size > 0 && positive >= negative) positive += PICK_BONUS;
  const mass = positive + negative;
  // One mild word either way is not a tone: it stays inside the neutral band.
  const balance = positive - negative;
  // Strengths and weaknesses near even are a balanced answer, not a verdict.
  const even = Math.min(positive, negative) >= 0.5 * Math.max(positive, negative);
  const sentiment = mass === 0 ? 0 : (balance / (mass + 1)) * (Math.abs(balance) < 1 || even ? 0.1 : 1);
  const rounded = Math.round(sentiment * 1000) / 1000;
  // A warning is said in words. A recommendation is said in words, or is a favourable verdict, or
  // a place in a list of picks the prompt asked for ("best", "which", "alternatives") that is not
  // unfavourable.
  const stance: Tone["stance"] = warned
    ? "warned"
    : (recommended && rounded >= 0) || rounded > 0.1 || (advice && ownItems.size > 0 && rounded >= 0)
      ? "recommended"
      : "mentioned";
  return { sentiment: rounded, stance };
}

/**
 * Whether a blank line comes before the sentence. Japanese and Chinese drop the subject, so a
 * sentence without a name right after one about the brand, in the same paragraph, is about it too.
 */
function paragraphBreak(text: string, sentence: Span): boolean {
  return /\n\s*\n\s*$/.test(text.slice(Math.max(0, sentence.start - 8), sentence.start + 1));
}

/** Words right before a brand that make it the alternative passed over. */
const PASSED_OVER: Record<Language, RegExp> = {
  en: /(?<![\p{L}])(?:rather than|instead of|over|in place of|not)\s+(?:the\s+)?[*_"']*$/u,
  fr: /(?<![\p{L}])(?:plutot que|plutot qu'|au lieu de|au lieu d'|pas)\s*(?:chez\s+)?[*_"']*$/u,
  de: /(?<![\p{L}])(?:statt|anstatt|anstelle von|lieber als|eher als|nicht)\s+(?:bei\s+|zu\s+)?[*_"']*$/u,
  es: /(?<![\p{L}])(?:en lugar de|en vez de|antes que|no)\s+(?:en\s+)?[*_"']*$/u,
  ja: /(?:ではなく|じゃなくて)[\s、,]*$/u,
  zh: /(?:而不是|不要选|别选|与其选)\s*$/u,
};

/** Reported speech: what users, customers or reviewers say, complain of or praise. */
const REPORTED: Record<Language, RegExp> = {
  en: /(?<![\p{L}])(?:users?|customers?|clients?|reviewers?|critics?|owners?|buyers?|shoppers?|members?|people|diners|guests|travell?ers|residents|homeowners|parents|readers|testers|subscribers|complaints?|reviews?|feedback|ratings?)(?![\p{L}])[^.!?]*(?<![\p{L}])(?:report\w*|say|says|said|complain\w*|note\w*|mention\w*|prais\w*|describ\w*|rave\w*|warn\w*|criticis\w*|criticiz\w*|call\w*|found|find|love\w*|hate\w*|rate\w*|point\w*|flag\w*|highlight\w*|cite\w*|received?|mention|about|over)(?![\p{L}])/u,
  fr: /(?<![\p{L}])(?:utilisateurs?|clients?|clientes?|avis|critiques?|testeurs?|acheteurs?|internautes|abonnes|plaintes?|retours?|notes?)(?![\p{L}])/u,
  de: /(?<![\p{L}])(?:nutzer(?:innen)?|kunden|kundinnen|tester|bewertungen|rezensionen|kritiker|kaufer|beschwerden|erfahrungsberichte|berichten|klagen|loben|bemangeln|kritisieren)(?![\p{L}])/u,
  es: /(?<![\p{L}])(?:usuarios?|clientes?|resenas?|opiniones|criticos?|compradores?|quejas?|valoraciones|comentarios|reportan|se quejan|elogian|critican|destacan)(?![\p{L}])/u,
  ja: /ユーザー|利用者|口コミ|レビュー|評判|評価|苦情|不満の声|声が/u,
  zh: /用户|消费者|顾客|评价|口碑|投诉|反馈|评论|网友/u,
};

/** Only "and", "or", "&" or a comma between two names: they share what is said next. */
const JOINED = /^[\s*_\])]*(?:,|&|and|or|et|ou|und|oder|y|o|e|、|と|や|及び|和)?[\s*_[(]*$/u;

/**
 * The lines under a heading, or under a bold line, that names the brand and no other: a section
 * about the brand ("## Zoom Webinars" then its paragraph).
 */
function ownSections(text: string, lines: Line[], own: Occurrence[], others: Occurrence[]): Set<number> {
  const out = new Set<number>();
  let inside = false;
  lines.forEach((line, index) => {
    const body = text.slice(line.start, line.end);
    if (/^\s*(?:#{1,6}\s|\*\*[^*]+\*\*:?\s*$)/.test(body)) {
      inside = within(own, line).length > 0 && within(others, line).length === 0;
    } else if (inside) out.add(index);
  });
  return out;
}

/** Whether the occurrence is the object of a comparison ("than HubSpot", "HubSpotより"). */
function afterThan(text: string, clause: Span, o: Occurrence, rules: Compiled): boolean {
  if (rules.negatesAfter) return text.startsWith("より", o.end);
  if (rules.cjk) return text[o.start - 1] === "比";
  return rules.than.test(lastWords(text.slice(clause.start, o.start), 3));
}

/** Whether the brand is only what another is compared with ("than X", "close to X", "不如X"). */
function comparedWith(text: string, clause: Span, o: Occurrence, rules: Compiled): boolean {
  if (afterThan(text, clause, o, rules)) return true;
  if (rules.cjk) return rules.compared.test(text.slice(Math.max(clause.start, o.start - 3), o.start));
  // Four words back, so that "ahead of Unilever and Estée Lauder" covers both.
  return rules.compared.test(lastWords(text.slice(clause.start, o.start), 4));
}

/** Where "than" comes right before one of the brand's occurrences in the clause, if it does. */
function thanBrand(text: string, clause: Span, own: Occurrence[], rules: Compiled): number | null {
  for (const o of within(own, clause)) {
    if (afterThan(text, clause, o, rules)) return rules.cjk ? o.end : o.start;
  }
  return null;
}
