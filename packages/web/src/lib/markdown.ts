import DOMPurify from "dompurify";
import { marked } from "marked";
import { type NameGroup, splitMentions } from "./highlight.ts";

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
      mark.className = segment.mention.kind === "brand" ? "mention-brand" : "mention-competitor";
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

/** Safe HTML of an answer, with the names highlighted. */
export function renderAnswer(text: string, groups: readonly NameGroup[]): string {
  hookLinks();
  const html = marked.parse(text, { async: false, gfm: true, breaks: false });
  const fragment = DOMPurify.sanitize(html, {
    FORBID_TAGS,
    FORBID_ATTR: ["style", "class", "id"],
    RETURN_DOM_FRAGMENT: true,
  });
  demoteHeadings(fragment);
  wrapTables(fragment);
  highlight(fragment, groups);
  const container = document.createElement("div");
  container.append(fragment);
  return container.innerHTML;
}
