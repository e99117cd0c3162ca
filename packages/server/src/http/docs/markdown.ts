import { escapeHtml } from "../../lib/html.ts";

export { escapeHtml };

/** The little markdown our own descriptions use: paragraphs, **bold**, *italic*, `code`. */
export function inlineMarkdown(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/\*([^*]+)\*/g, "<em>$1</em>");
}

export function markdown(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => `<p>${inlineMarkdown(paragraph.replace(/\n/g, " "))}</p>`)
    .join("\n");
}
