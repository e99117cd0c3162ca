import type { BrandMatcher, Occurrence, Prepared } from "./mentions.ts";
import { type Line, lineAt } from "./structure.ts";

/**
 * How sure the rules are that an occurrence means the brand (DESIGN.md §7). A name that is not an
 * ordinary word is sure. An ordinary word ("Notion", "Target") starts unsure and gains from each
 * piece of evidence: capitalised as the brand is where a sentence does not explain it, set in
 * bold or a heading, leading a list item, next to other tracked brands, an answer about the kind
 * of product the prompt asks for; it loses when written in lower case against the brand's
 * spelling. Collocations ("target audience") were already left out by the matcher.
 */
const BASE = 0.3;

// Words in a prompt that show it asks about a kind of product, service or company.
const CATEGORY =
  /\b(?:apps?|tools?|software|platforms?|services?|brands?|compan(?:y|ies)|providers?|vendors?|products?|alternatives?|competitors?|vs|versus|compare|crm|saas|banks?|airlines?|carriers?|retailers?|stores?|shops?|chains?|suppliers?|solutions?|systems?|suites?|manufacturers?|makers?|outils?|logiciels?|applications?|marques?|entreprises?|soci[eé]t[eé]s?|banques?|compagnies?|anbieter|marken?|unternehmen|firmen?|banken|fluggesellschaften|herramientas?|aplicaci[oó]n(?:es)?|marcas?|empresas?|bancos?|aerol[ií]neas?|proveedores?)\b|ツール|アプリ|サービス|ブランド|会社|企業|メーカー|銀行|航空|ソフト|工具|品牌|公司|软件|服务/iu;

/** What the prompt tells about the names: whether it asks about a kind of product, and how it writes them. */
export function promptEvidence(
  matcher: BrandMatcher,
  prompt: string | undefined,
): Pick<Context, "category" | "promptNames" | "promptWords"> {
  const promptNames = new Set<number>();
  const promptWords = new Set<number>();
  if (prompt === undefined || prompt === "") return { category: false, promptNames, promptWords };
  const prepared = matcher.prepare(prompt);
  for (const o of matcher.occurrences(prepared).found) {
    if (!o.ordinary) continue;
    if (lowerAgainstSpelling(prepared.text, o)) promptWords.add(o.brand);
    else promptNames.add(o.brand);
  }
  for (const name of matcher.ordinaryNames()) {
    if (promptNames.has(name.brand)) continue;
    // "delta hedging", "zoomer", "zooming": the word, not the brand.
    const at = prepared.folded.search(new RegExp(`(?<![\\p{L}])${name.key}`, "u"));
    if (at >= 0 && !capitalised(prepared.text, { start: at } as Occurrence)) promptWords.add(name.brand);
  }
  return { category: CATEGORY.test(prepared.folded), promptNames, promptWords };
}

const OPENERS = new Set(["*", "_", "#", ">", '"', "'", "(", "[", "`", "|", "-", "+", "•"]);

/** Whether the name at `start` opens a sentence, a line or a list item (so its capital says nothing). */
function opensSentence(text: string, start: number): boolean {
  let i = start - 1;
  while (i >= 0) {
    const c = text[i] ?? "";
    if (c === " " || c === "\t" || OPENERS.has(c)) {
      i--;
      continue;
    }
    if (c === "\n" || c === "." || c === "!" || c === "?" || c === ":" || c === "。") return true;
    // "1. Notion" or "1) Notion"
    if (/\d/.test(c)) return /[.)]/.test(text[i + 1] ?? "");
    return false;
  }
  return true;
}

function capitalised(text: string, o: Occurrence): boolean {
  const first = text[o.start] ?? "";
  return first !== first.toLowerCase();
}

function marked(text: string, o: Occurrence, line: Line | undefined): boolean {
  const before = text.slice(Math.max(0, o.start - 2), o.start);
  const after = text.slice(o.end, o.end + 2);
  if ((before === "**" || before.endsWith("_")) && (after === "**" || after.startsWith("_"))) return true;
  if (line !== undefined && /^\s*#{1,6}\s/.test(text.slice(line.start, line.end))) return true;
  return false;
}

function leadsItem(text: string, o: Occurrence, line: Line | undefined): boolean {
  if (line === undefined || line.item === null) return false;
  return /^[\s|#*_\-+•\d.)]*$/.test(text.slice(line.start, o.start));
}

/** What the prompt and the rest of the answer say about each brand's ordinary-word name. */
export interface Context {
  /** The prompt asks about a kind of product or company. */
  category: boolean;
  /** Brands the prompt names as spelled (capitalised mid-sentence, or otherwise like the brand). */
  promptNames: ReadonlySet<number>;
  /** Brands whose name the prompt uses as an ordinary word (lower case, or as the start of a word). */
  promptWords: ReadonlySet<number>;
  /** Brands whose name the answer also uses inside a collocation ("zoom in"). */
  idiomatic: ReadonlySet<number>;
  /** German capitalises every noun, so a capital says less there. */
  language: string;
}

function lowerAgainstSpelling(text: string, o: Occurrence): boolean {
  const spelled = o.spelling !== o.spelling.toLowerCase();
  const written = text.slice(o.start, o.end);
  return spelled && written === written.toLowerCase();
}

function ordinaryScore(text: string, o: Occurrence, line: Line | undefined, context: Context): number {
  let score = BASE;
  const lowered = lowerAgainstSpelling(text, o);
  if (lowered) score -= 0.25;
  else if (capitalised(o.spelling, { ...o, start: 0 })) {
    // At a sentence start the capital says little, but a lower-case word there would not have one.
    score += opensSentence(text, o.start) ? 0.05 : context.language === "de" ? 0.1 : 0.45;
  }
  if (marked(text, o, line)) score += 0.15;
  if (context.category) score += 0.15;
  if (context.promptNames.has(o.brand)) score += 0.3;
  if (context.promptWords.has(o.brand)) score -= 0.4;
  if (context.idiomatic.has(o.brand)) score -= 0.2;
  if (/^(?:'s|\.com|\s+(?:Inc|Corp|app|AI|plc|Ltd)\b)/.test(text.slice(o.end, o.end + 6))) score += 0.2;
  // Lower case against the brand's spelling stays below "mentioned" whatever else: the judge's to settle.
  return lowered ? Math.min(score, 0.45) : score;
}

const round = (score: number) => Math.max(0, Math.min(1, Math.round(score * 100) / 100));

export function confidences(prepared: Prepared, occurrences: Occurrence[], lines: Line[], context: Context): number[] {
  const { text } = prepared;
  // First, each occurrence on its own; then the company it keeps: other brands the rules are sure
  // of close by, or leading list items like it does.
  const own = occurrences.map((o) => {
    if (o.phrase && lowerAgainstSpelling(text, o)) return 0.1;
    if (!o.ordinary) return 1;
    return ordinaryScore(text, o, lineAt(lines, o.start), context);
  });
  const sure = occurrences.filter((_, i) => (own[i] ?? 0) >= 0.5);
  const listed = sure.some((o) => lineAt(lines, o.start)?.item != null);
  return occurrences.map((o, i) => {
    let score = own[i] ?? 0;
    if (!o.ordinary || score >= 1) return round(score);
    const others = sure.filter((other) => other.brand !== o.brand);
    if (others.some((other) => Math.abs(other.start - o.start) < 120)) score += 0.2;
    else if (others.length > 0) score += 0.1;
    if (listed && leadsItem(text, o, lineAt(lines, o.start))) score += 0.2;
    if (lowerAgainstSpelling(text, o)) score = Math.min(score, 0.45);
    return round(score);
  });
}
