import type { Language } from "./lexicon.ts";
import type { BrandMatcher, Occurrence, Prepared } from "./mentions.ts";
import { type Line, lineAt } from "./structure.ts";

/**
 * How sure the rules are that an occurrence means the brand (DESIGN.md §7, issue 25). A name that
 * is not an ordinary word is sure. An ordinary word ("Notion", "Target", "Loom") starts unsure (a
 * common word more than a rare one) and gains from each piece of evidence: capitalised as the
 * brand is where neither a sentence start nor the language explains it, a verb after it as after a
 * subject ("Notion offers"), set in bold or a heading, leading a list item, other tracked brands in
 * the same sentence (more when the sentence compares them), an answer about the kind of product the
 * prompt asks for; it loses when written in lower case against the brand's spelling, when what
 * follows is how the word goes on ("Notion of…", "Brave the cold", "Chime in"), and after a German
 * article ("der Stern"). Collocations ("target audience") were already left out by the matcher.
 */
const BASE = { common: 0.3, rare: 0.4 } as const;

// Words in a prompt that show it asks about a kind of product, service or company.
const CATEGORY =
  /\b(?:apps?|tools?|software|platforms?|services?|brands?|compan(?:y|ies)|providers?|vendors?|products?|alternatives?|competitors?|vs|versus|compare|crm|saas|banks?|airlines?|carriers?|retailers?|stores?|shops?|chains?|suppliers?|solutions?|systems?|suites?|manufacturers?|makers?|outils?|logiciels?|applications?|marques?|entreprises?|soci[eé]t[eé]s?|banques?|compagnies?|anbieter|marken?|unternehmen|firmen?|banken|fluggesellschaften|herramientas?|aplicaci[oó]n(?:es)?|marcas?|empresas?|bancos?|aerol[ií]neas?|proveedores?)\b|ツール|アプリ|サービス|ブランド|会社|企業|メーカー|銀行|航空|ソフト|工具|品牌|公司|软件|服务/iu;

/** Words next to a name in a prompt that make it a product: "notion app", "hopper refund", "brave vs chrome". */
const PRODUCT_NEAR =
  /(?<![\p{L}])(?:app|apps|reviews?|refunds?|login|sign in|account|pricing|prices?|cost|costs|plans?|subscriptions?|vs|versus|or|worth|legit|safe|scam|customer service|support|download|install|flavou?rs?|menu|stores?|shops?|near me|opening hours|delivery|#\d|\d+|aplicacion|app|opiniones|precio|resenas|avis|prix|tarifs?|abonnement|erfahrungen|preise?|kosten|test|oder|ou|o)(?![\p{L}])/u;

/** What the prompt says: evidence for ordinary-word names, and which brands it names at all. */
export type PromptEvidence = Pick<Context, "category" | "promptNames" | "promptWords"> & {
  /** Every brand the prompt names, by any of its names ("Is Acme worth it?" is about Acme). */
  named: ReadonlySet<number>;
};

/** What the prompt tells about the names: whether it asks about a kind of product, and how it writes them. */
export function promptEvidence(
  matcher: BrandMatcher,
  prompt: string | undefined,
  language: Language = "en",
): PromptEvidence {
  const promptNames = new Set<number>();
  const promptWords = new Set<number>();
  const named = new Set<number>();
  if (prompt === undefined || prompt === "") return { category: false, promptNames, promptWords, named };
  const prepared = matcher.prepare(prompt);
  // Many people type questions without a single capital ("hopper refund problems"): there, lower
  // case says nothing, and a product word next to the name says it is the brand.
  const caseless = prepared.text === prepared.text.toLowerCase();
  for (const o of matcher.occurrences(prepared, language).found) {
    named.add(o.brand);
    if (!o.ordinary) continue;
    if (caseless) {
      const near = prepared.folded.slice(Math.max(0, o.start - 24), o.end + 24);
      if (PRODUCT_NEAR.test(near) || CATEGORY.test(near)) promptNames.add(o.brand);
    } else if (lowerAgainstSpelling(prepared.text, o)) promptWords.add(o.brand);
    else if (language === "de" ? !germanArticle(prepared.folded, o) : !o.capitalised) promptNames.add(o.brand);
  }
  for (const name of matcher.ordinaryNames(language)) {
    if (promptNames.has(name.brand)) continue;
    // "delta hedging", "zoomer", "zooming": the word, not the brand (without capitals, only as part of a longer word).
    const at = prepared.folded.search(new RegExp(`(?<![\\p{L}])${name.key}${caseless ? "(?=\\p{L})" : ""}`, "u"));
    if (at >= 0 && !capitalised(prepared.text, { start: at } as Occurrence)) promptWords.add(name.brand);
  }
  return { category: CATEGORY.test(prepared.folded), promptNames, promptWords, named };
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
  /** The answer's language: which words go on like a noun or a subject there. */
  language: Language;
}

function lowerAgainstSpelling(text: string, o: Occurrence): boolean {
  const spelled = o.spelling !== o.spelling.toLowerCase();
  const written = text.slice(o.start, o.end);
  return spelled && written === written.toLowerCase();
}

/** After a word at a sentence start: how the word goes on, not a brand ("Notion of", "Brave the cold", "Chime in"). */
const WORD_GOES_ON: Record<Language, RegExp> = {
  en: /^[\s*_]+(?:of|the|a|an|your|my|our|their|his|her|its|it|them|this|that|these|those|up|out|off|away|down|in(?=\s+(?:on|to|with|the|a)\b)|into|onto|yourself|yourselves)\b/u,
  fr: /^[\s*_]+(?:de|d'|du|des)(?![\p{L}])/u,
  es: /^[\s*_]+(?:de|del)(?![\p{L}])/u,
  de: /^[\s*_]+(?:des|der)(?![\p{L}])/u,
  ja: /^な/u,
  zh: /^的/u,
};

/** After a name: a verb as after a subject, or the brand's own words ("Notion offers", "Loom's"). */
const SUBJECT: Record<Language, RegExp> = {
  en: /^(?:'s?\b|[\s*_]+(?:is|was|has|had|does|doesn't|isn't|can|can't|will|won't|would|also|now|still|offers|provides|lets|makes|costs|charges|supports|includes|integrates|works|gives|allows|remains|stands|comes|keeps|uses|sells|ships|focuses|targets|leads|wins|excels|shines|delivers|feels|looks|runs|tracks|handles|starts|covers|added|launched|released|announced|introduced|raised|reported)\b|\s+[a-z]+[^s\s]s\s+(?:your|you|the|a|an|it|them|its|their|every|all|most|up|out)\b)/u,
  fr: /^[\s*_]+(?:n'|ne\s+)?(?:est|a|propose|offre|permet|coute|reste|se|mise|vend|livre|domine|integre|inclut|facture|affiche|fonctionne|convient|gere|reste|lance|annonce)(?![\p{L}])/u,
  es: /^[\s*_]+(?:no\s+|ya\s+|tambien\s+)?(?:es|esta|obtiene|resulta|parece|cuenta|aparece|queda|pierde|gana|brilla|falla|ofrece|permite|cuesta|tiene|sigue|vende|destaca|domina|se|incluye|integra|cobra|funciona|gestiona|lanzo|anuncio)(?![\p{L}])/u,
  de: /^[\s*_]+(?:ist|war|sollten?|kann|konnen|muss|wird|werden|bietet|hat|kostet|ermoglicht|bleibt|liefert|verkauft|punktet|uberzeugt|integriert|eignet|setzt|verlangt|funktioniert|wirbt|startete)(?![\p{L}])/u,
  ja: /^(?:は|が|も|社|の(?:アプリ|サービス|製品))/u,
  zh: /^(?:是|的(?:产品|服务|应用)|推出|提供|在)/u,
};

/** A German article or determiner before a capitalised word: the noun, not a name ("der Stern"). */
const GERMAN_ARTICLE =
  /(?:^|\s)(?:der|die|das|den|dem|des|ein|eine|einen|einem|einer|eines|kein|keine|keinen|mein|meine|dein|sein|seine|ihr|ihre|unser|unsere|jeder|jede|jedes|dieser|diese|dieses)\s+(?:\p{L}+e[nmrs]?\s+)?$/u;

function germanArticle(folded: string, o: Occurrence): boolean {
  return GERMAN_ARTICLE.test(folded.slice(Math.max(0, o.start - 30), o.start));
}

function ordinaryScore(prepared: Prepared, o: Occurrence, line: Line | undefined, context: Context): number {
  const { text, folded } = prepared;
  let score = o.common ? BASE.common : BASE.rare;
  const lowered = lowerAgainstSpelling(text, o);
  const after = folded.slice(o.end, o.end + 40);
  if (lowered) score -= 0.25;
  else if (capitalised(o.spelling, { ...o, start: 0 })) {
    // At a sentence start the capital says little, but a lower-case word there would not have one;
    // nor does it where the word itself is capitalised (German nouns, "Monday").
    // A word that is capitalised as a word ("Monday", a German noun) gains nothing from it.
    // In German a noun after an article is the noun ("die klassische Shell"); one without is a name.
    const start = opensSentence(text, o.start);
    const article = context.language === "de" && germanArticle(folded, o);
    if (article) score -= 0.15;
    else if (o.capitalised) score += context.language === "de" ? 0.1 : 0;
    else score += start ? 0.05 : 0.45;
    if ((start || o.capitalised || article) && WORD_GOES_ON[context.language].test(after)) score -= 0.3;
    if (SUBJECT[context.language].test(after)) score += 0.15;
  } else if (
    !/\p{L}/u.test(o.spelling.replace(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu, "")) &&
    SUBJECT[context.language].test(after)
  ) {
    // Scripts without case (小米は…): what follows is the only cue of this kind.
    score += 0.15;
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

/** Words that compare what a sentence names ("X is fine for trips; Y is more comfortable"). */
const COMPARES: Record<Language, RegExp> = {
  en: /;|(?<![\p{L}])(?:than|more|less|better|worse|whereas|while|versus|vs|compared|unlike|both|either|neither|instead)(?![\p{L}])/u,
  fr: /;|(?<![\p{L}])(?:que|plus|moins|meilleure?|pire|alors que|tandis que|contrairement|par rapport|face a|les deux|plutot)(?![\p{L}])/u,
  de: /;|(?<![\p{L}])(?:als|mehr|weniger|besser|schlechter|wahrend|vergleich|beide|gegenuber|dagegen|hingegen)(?![\p{L}])/u,
  es: /;|(?<![\p{L}])(?:que|mas|menos|mejor|peor|mientras|comparacion|frente a|ambos|ambas|en cambio)(?![\p{L}])/u,
  ja: /より|比べ|一方|どちら|両方|対して/u,
  zh: /比|更|而|相比|两者|不如|还是/u,
};

/** The sentence around an offset: from the last boundary before it to the next after it. */
function sentenceAround(text: string, at: number): { start: number; end: number } {
  const boundary = /[.!?。！？\n]/u;
  let start = at;
  while (start > 0 && !boundary.test(text[start - 1] ?? "")) start--;
  let end = at;
  while (end < text.length && !boundary.test(text[end] ?? "")) end++;
  return { start, end };
}

const round = (score: number) => Math.max(0, Math.min(1, Math.round(score * 100) / 100));

export function confidences(prepared: Prepared, occurrences: Occurrence[], lines: Line[], context: Context): number[] {
  const { text } = prepared;
  // First, each occurrence on its own; then the company it keeps: other brands the rules are sure
  // of close by, or leading list items like it does.
  const own = occurrences.map((o) => {
    if (o.phrase && lowerAgainstSpelling(text, o)) return 0.1;
    if (!o.ordinary) return 1;
    return ordinaryScore(prepared, o, lineAt(lines, o.start), context);
  });
  const sure = occurrences.filter((_, i) => (own[i] ?? 0) >= 0.5);
  const listed = sure.some((o) => lineAt(lines, o.start)?.item != null);
  return occurrences.map((o, i) => {
    let score = own[i] ?? 0;
    if (!o.ordinary || score >= 1) return round(score);
    const others = sure.filter((other) => other.brand !== o.brand);
    if (others.some((other) => Math.abs(other.start - o.start) < 120)) score += 0.2;
    else if (others.length > 0) score += 0.1;
    // Other tracked brands named in the same sentence, as names (not in lower case), even when
    // the rules are unsure of each: brands named side by side are brands, more so compared.
    if (!lowerAgainstSpelling(text, o)) {
      const sentence = sentenceAround(text, o.start);
      const company = occurrences.some(
        (other) =>
          other.brand !== o.brand &&
          other.start >= sentence.start &&
          other.start < sentence.end &&
          !lowerAgainstSpelling(text, other) &&
          (own[occurrences.indexOf(other)] ?? 0) >= 0.2,
      );
      if (company) {
        score += 0.1;
        if (COMPARES[context.language].test(prepared.folded.slice(sentence.start, sentence.end))) score += 0.15;
      }
    }
    if (listed && leadsItem(text, o, lineAt(lines, o.start))) score += 0.2;
    if (lowerAgainstSpelling(text, o)) score = Math.min(score, 0.45);
    return round(score);
  });
}
