const POSITIVE = new Set(
  (
    "best excellent great good leading popular reliable recommended recommend powerful intuitive easy affordable strong robust top " +
    "favorite favourite love loved praised standout ideal outstanding impressive solid superior trusted efficient flexible " +
    "comprehensive seamless fast helpful innovative clean user-friendly friendly generous valuable versatile scalable secure " +
    "excels excel shines winner preferred polished smooth capable effective accurate responsive simple well-designed beloved " +
    "renowned premier exceptional perfect elegant rich"
  ).split(" "),
);

const NEGATIVE = new Set(
  (
    "expensive poor bad lacks lacking limited slow complicated difficult outdated buggy worst issues problems complaints steep " +
    "clunky weak avoid disappointing overpriced costly confusing unreliable frustrating cumbersome mediocre lagging inferior " +
    "concerns concern criticized criticised downside downsides drawback drawbacks bloated unintuitive glitchy crashes risky " +
    "inconsistent pricey lacklustre lackluster struggles struggle fails fail failed clumsy dated hidden unresponsive terrible " +
    "awful annoying breach breaches lawsuit controversy scandal"
  ).split(" "),
);

const NEGATORS = new Set([
  "not",
  "no",
  "never",
  "without",
  "hardly",
  "isn",
  "doesn",
  "don",
  "aren",
  "wasn",
  "weren",
  "cannot",
  "can't",
  "won",
]);

/** A span's sentiment in [-1, 1] from a word list with negation ("not reliable" counts as negative). */
export function scoreSentiment(span: string): number | null {
  const tokens = span.split(/[^\p{L}\p{N}'-]+/u).filter((t) => t !== "");
  let positive = 0;
  let negative = 0;
  tokens.forEach((token, index) => {
    const word = token.replace(/^'+|'+$/g, "");
    let polarity = POSITIVE.has(word) ? 1 : NEGATIVE.has(word) ? -1 : 0;
    if (polarity === 0) return;
    for (let back = Math.max(0, index - 3); back < index; back++) {
      const previous = tokens[back] ?? "";
      if (NEGATORS.has(previous) || previous.endsWith("n't")) polarity = -polarity;
    }
    if (polarity > 0) positive++;
    else negative++;
  });
  if (positive + negative === 0) return 0;
  return (positive - negative) / (positive + negative);
}
