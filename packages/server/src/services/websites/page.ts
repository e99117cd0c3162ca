import { Parser } from "htmlparser2";

/** What the website reader keeps of one page: text and metadata only; scripts are never run. */
export interface ReadPage {
  url: string;
  title: string | null;
  siteName: string | null;
  description: string | null;
  /** `<html lang>`, e.g. `en-GB`. */
  lang: string | null;
  headings: string[];
  /** List items and table cells of a few words: features, plan names. */
  items: string[];
  /** Paragraph text, in order. */
  paragraphs: string[];
  links: { href: string; text: string }[];
  /** The objects of its JSON-LD blocks (schema.org), parsed; invalid ones left out. */
  jsonLd: Record<string, unknown>[];
}

const BLOCK = new Set(["p", "li", "td", "th", "h1", "h2", "h3", "h4", "dd", "dt", "blockquote", "figcaption"]);
const SKIPPED = new Set(["script", "style", "noscript", "template", "svg", "iframe", "object"]);
const MAX_ITEMS = 400;
/**
 * The characters kept of one text (a paragraph, item, heading, link text, title or description):
 * what the rules of suggest.ts read is bounded, whatever a page holds (a 700 KB paragraph is not
 * a sentence about a brand, and rules over it would hold the server up).
 */
const MAX_TEXT = 2_000;

const squash = (text: string) => {
  const value = text.replace(/\s+/g, " ").trim();
  return value.length <= MAX_TEXT ? value : value.slice(0, MAX_TEXT).trimEnd();
};

function flatten(value: unknown): Record<string, unknown>[] {
  if (Array.isArray(value)) return value.flatMap(flatten);
  if (value === null || typeof value !== "object") return [];
  const record = value as Record<string, unknown>;
  return [record, ...flatten(record["@graph"])];
}

/**
 * Reads a page's HTML as text: title, `og:site_name`, the description, `<html lang>`, headings,
 * list items and paragraphs, links with their text, and JSON-LD blocks (parsed as data). Scripts,
 * styles and frames are skipped; nothing is executed or fetched.
 */
export function readPage(url: string, html: string): ReadPage {
  const page: ReadPage = {
    url,
    title: null,
    siteName: null,
    description: null,
    lang: null,
    headings: [],
    items: [],
    paragraphs: [],
    links: [],
    jsonLd: [],
  };
  const stack: string[] = [];
  let skipping = 0;
  let text = "";
  let jsonLd: string | null = null;
  let link: { href: string; text: string } | null = null;
  let title: string | null = null;

  const flush = (tag: string) => {
    const value = squash(text);
    text = "";
    if (value === "" || page.items.length + page.paragraphs.length > MAX_ITEMS) return;
    if (/^h[1-4]$/.test(tag)) page.headings.push(value);
    else if (tag === "p" || tag === "blockquote" || tag === "dd") page.paragraphs.push(value);
    else page.items.push(value);
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        stack.push(name);
        if (name === "html" && attributes.lang) page.lang = attributes.lang.trim() || null;
        if (name === "title") title = "";
        if (name === "meta") {
          const key = (attributes.property ?? attributes.name ?? "").toLowerCase();
          const content = squash(attributes.content ?? "");
          if (content !== "") {
            if (key === "og:site_name" || key === "application-name") page.siteName ??= content;
            if (key === "description" || key === "og:description") page.description ??= content;
          }
        }
        if (name === "script" && (attributes.type ?? "").toLowerCase() === "application/ld+json") jsonLd = "";
        else if (SKIPPED.has(name)) skipping++;
        if (name === "a" && attributes.href) link = { href: attributes.href, text: "" };
        if (BLOCK.has(name)) text = "";
        if (name === "br") text += " ";
      },
      ontext(chunk) {
        if (jsonLd !== null) {
          jsonLd += chunk;
          return;
        }
        if (skipping > 0) return;
        if (title !== null && stack.at(-1) === "title") title += chunk;
        if (link !== null) link.text += chunk;
        text += chunk;
      },
      onclosetag(name) {
        stack.pop();
        if (name === "script" && jsonLd !== null) {
          try {
            page.jsonLd.push(...flatten(JSON.parse(jsonLd)));
          } catch {
            // Not JSON: a site's mistake, nothing to read.
          }
          jsonLd = null;
          return;
        }
        if (SKIPPED.has(name)) {
          skipping = Math.max(0, skipping - 1);
          return;
        }
        if (name === "title" && title !== null) {
          page.title = squash(title) || null;
          title = null;
        }
        if (name === "a" && link !== null) {
          if (page.links.length < MAX_ITEMS) page.links.push({ href: link.href, text: squash(link.text) });
          link = null;
        }
        if (BLOCK.has(name)) flush(name);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return page;
}
