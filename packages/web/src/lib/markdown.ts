import DOMPurify from "dompurify";
import { marked } from "marked";
import { MARK_PATTERN, MARKS, type MentionAt, markMentions, type NameGroup, splitMentions } from "./highlight.ts";

/**
 * An engine's answer as HTML: Markdown rendered by `marked`, then sanitised by DOMPurify (the answer
 * is untrusted text: no script, no styles, no images or frames that would load anything), links opened
 * in a new tab without the opener, and the tracked brands' names wrapped in <mark>.
 */

const FORBID_TAGS = [
  "img",
  "picture",
  "video",
  "audio",
  "source",
  "iframe",
  "object",
  "embed",
  "style",
  "form",
  "input",
];
let hooked = false;

function hookLinks(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook("afterSanitizeAttributes", (node) => {
    if (node.tagName === "A") {
      const href = node.getAttribute("href") ?? "";
      if (!/^https?:\/\//i.test(href)) {
        node.removeAttribute("href");
        return;
      }
      node.setAttribute("target", "_blank");
      node.setAttribute("rel", "noopener noreferrer nofollow ugc");
    }
  });
}

function highlight(root: DocumentFragment, groups: readonly NameGroup[]): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text);
  for (const node of nodes) {
    const segments = splitMentions(node.data, groups);
    if (segments.length === 1 && !segments[0]?.mention) continue;
    const replacement = document.createDocumentFragment();
    for (const segment of segments) {
      if (!segment.mention) {
        replacement.append(segment.text);
        continue;
      }
      const mark = document.createElement("mark");
      mark.className = markClass(segment.mention.kind);
      mark.dataset.brand = segment.mention.name;
      mark.textContent = segment.text;
      replacement.append(mark);
    }
    node.replaceWith(replacement);
  }
}

/** An answer's headings sit under the page's own (h1 page, h2 card): shifted down two levels. */
function demoteHeadings(root: DocumentFragment): void {
  for (const heading of root.querySelectorAll("h1, h2, h3, h4, h5, h6")) {
    const level = Math.min(6, Number(heading.tagName.slice(1)) + 2);
    const replacement = document.createElement(`h${level}`);
    replacement.append(...heading.childNodes);
    heading.replaceWith(replacement);
  }
}

/** Wide tables scroll inside a box that keyboard users can reach and scroll too. */
function wrapTables(root: DocumentFragment): void {
  for (const table of root.querySelectorAll("table")) {
    const box = document.createElement("div");
    box.className = "answer-table";
    box.tabIndex = 0;
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", "Table in the answer");
    table.replaceWith(box);
    box.append(table);
  }
}

/** The class of each kind of highlight (index.css): the brand's, a competitor's. */
function markClass(kind: "brand" | "competitor"): string {
  return kind === "brand" ? "mention-brand" : "mention-competitor";
}

/**
 * Turns the markers `markMentions` put in the text into <mark>s: text nodes in document order, so a
 * name that Markdown split across two nodes (part of it emphasised) is marked in both parts.
 * Markers that ended up in an attribute (a link's address) are dropped.
 */
function highlightMarked(root: DocumentFragment): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text);
  let open: "brand" | "competitor" | null = null;
  for (const node of nodes) {
    if (!MARK_PATTERN.test(node.data) && open === null) continue;
    const replacement = document.createDocumentFragment();
    for (const part of node.data.split(/([\uE000-\uE002])/)) {
      if (part === MARKS.brand) open = "brand";
      else if (part === MARKS.competitor) open = "competitor";
      else if (part === MARKS.end) open = null;
      else if (part !== "" && open === null) replacement.append(part);
      else if (part !== "" && open !== null) {
        const mark = document.createElement("mark");
        mark.className = markClass(open);
        mark.textContent = part;
        replacement.append(mark);
      }
    }
    node.replaceWith(replacement);
  }
  for (const element of root.querySelectorAll("*")) {
    for (const attribute of [...element.attributes]) {
      const value = attribute.value.replace(/[\uE000-\uE002]|%EE%80%8[0-2]/gi, "");
      if (value !== attribute.value) element.setAttribute(attribute.name, value);
    }
  }
}

/** Markdown rendered, sanitised, its headings demoted and its tables made scrollable. */
function renderSafe(text: string): DocumentFragment {
  hookLinks();
  const html = marked.parse(text, { async: false, gfm: true, breaks: false });
  const fragment = DOMPurify.sanitize(html, {
    FORBID_TAGS,
    FORBID_ATTR: ["style", "class", "id"],
    RETURN_DOM_FRAGMENT: true,
  });
  demoteHeadings(fragment);
  wrapTables(fragment);
  return fragment;
}

function htmlOf(fragment: DocumentFragment): string {
  const container = document.createElement("div");
  container.append(fragment);
  return container.innerHTML;
}

/** Safe HTML of an answer, with the names highlighted. */
export function renderAnswer(text: string, groups: readonly NameGroup[]): string {
  const fragment = renderSafe(text);
  highlight(fragment, groups);
  return htmlOf(fragment);
}

/** Safe HTML of an answer, with the names highlighted where the server measured them (`mentions`). */
export function renderAnswerAt(text: string, mentions: readonly MentionAt[]): string {
  const fragment = renderSafe(markMentions(text, mentions));
  highlightMarked(fragment);
  return htmlOf(fragment);
}
