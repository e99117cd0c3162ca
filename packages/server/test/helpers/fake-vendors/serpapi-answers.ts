import { domainOf, type FakeAnswer, sentences, uniqueCitations } from "./server.ts";

/**
 * The bodies of SerpApi's answer engines, whose answer is the whole result rather than a block of
 * a results page: `google_ai_mode` (Google AI Mode) and `bing_copilot` (Microsoft Copilot in
 * Bing). Both put `text_blocks` and `references` at the top level, in the shape family of the AI
 * Overview's; AI Mode adds `reconstructed_markdown`, Copilot a `header`.
 */

export interface SerpApiTextBlock {
  type: "heading" | "paragraph" | "list";
  snippet?: string;
  reference_indexes?: number[];
  list?: { title?: string; snippet: string; reference_indexes: number[] }[];
}

export interface SerpApiReference {
  title: string;
  link: string;
  snippet: string;
  source: string;
  index: number;
}

/** The site's name as SerpApi's `source` gives it: `G2` for g2.com. */
export function sourceName(url: string): string {
  const domain = domainOf(url);
  const label = domain.split(".").slice(-2, -1)[0] ?? domain;
  return label.charAt(0).toUpperCase() + label.slice(1);
}

export function leadingWords(sentence: string, count: number): string {
  return sentence
    .split(/\s+/)
    .slice(0, count)
    .join(" ")
    .replace(/[.,;:!?]+$/, "");
}

export function references(answer: FakeAnswer): SerpApiReference[] {
  return uniqueCitations(answer.citations).map((citation, index) => ({
    title: citation.title,
    link: citation.url,
    snippet: `${citation.title}: ${answer.text.slice(0, 100)}`,
    source: sourceName(citation.url),
    index,
  }));
}

/**
 * A `paragraph` holding the first sentence, then a `list` holding each further sentence: joining
 * every `snippet` with single spaces gives back the answer's text when its sentences are separated
 * by single spaces. Each block cites references by their `index`, round the list.
 */
function answerBlocks(answer: FakeAnswer, count: number, titled: boolean): SerpApiTextBlock[] {
  const refs = (position: number): number[] => (count === 0 ? [] : [position % count]);
  const [first, ...rest] = sentences(answer.text);
  const blocks: SerpApiTextBlock[] = [];
  if (first !== undefined) blocks.push({ type: "paragraph", snippet: first, reference_indexes: refs(0) });
  if (rest.length > 0) {
    blocks.push({
      type: "list",
      list: rest.map((sentence, index) => ({
        ...(titled ? { title: leadingWords(sentence, 3) } : {}),
        snippet: sentence,
        reference_indexes: refs(index + 1),
      })),
    });
  }
  return blocks;
}

/** The answer as markdown, as AI Mode's `reconstructed_markdown` carries it. */
function markdown(blocks: SerpApiTextBlock[]): string {
  return blocks
    .map((block) =>
      block.type === "list" ? (block.list ?? []).map((item) => `* ${item.snippet}`).join("\n") : (block.snippet ?? ""),
    )
    .join("\n\n");
}

export interface AiModeBody {
  text_blocks?: SerpApiTextBlock[];
  references: SerpApiReference[];
  reconstructed_markdown: string;
}

/** `google_ai_mode`: text blocks, references and the reconstructed markdown; `markdownOnly` drops the blocks. */
export function buildAiModeBody(answer: FakeAnswer, markdownOnly: boolean): AiModeBody {
  const refs = references(answer);
  const blocks = answerBlocks(answer, refs.length, false);
  return {
    ...(markdownOnly ? {} : { text_blocks: blocks }),
    references: refs,
    reconstructed_markdown: markdown(blocks),
  };
}

export interface CopilotBody {
  header: string;
  text_blocks: SerpApiTextBlock[];
  references: SerpApiReference[];
}

/** `bing_copilot`: a header (the answer's title), its text blocks and its references. */
export function buildCopilotBody(answer: FakeAnswer): CopilotBody {
  const refs = references(answer);
  return {
    header: leadingWords(sentences(answer.text)[0] ?? "", 4),
    text_blocks: answerBlocks(answer, refs.length, true),
    references: refs,
  };
}
