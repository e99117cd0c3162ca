import { escapeHtml } from "../../lib/html.ts";

/** What an alert or a digest says, before it is written for e-mail or for Slack. */
export interface Message {
  subject: string;
  /** One sentence: what happened. */
  headline: string;
  /** Labelled facts, in order: the rule, the figure with its interval, the change… */
  facts: { label: string; value: string }[];
  /** Signed links into the dashboard; the first is the main one. */
  links: { label: string; url: string }[];
  /** A digest's signed unsubscribe link. */
  unsubscribe?: string;
  footer: string;
}

export interface EmailBody {
  subject: string;
  text: string;
  html: string;
}

/** Multipart e-mail: the same facts and links as plain text and as simple inline-styled HTML. */
export function emailBody(message: Message): EmailBody {
  const text = [
    message.headline,
    "",
    ...message.facts.map((fact) => `${fact.label}: ${fact.value}`),
    "",
    ...message.links.map((link) => `${link.label}: ${link.url}`),
    "",
    message.footer,
    ...(message.unsubscribe === undefined ? [] : [`Unsubscribe: ${message.unsubscribe}`]),
  ].join("\n");
  const rows = message.facts
    .map(
      (fact) =>
        `<tr><th align="left" style="padding:4px 12px 4px 0;vertical-align:top;font-weight:600">${escapeHtml(fact.label)}</th><td style="padding:4px 0">${escapeHtml(fact.value)}</td></tr>`,
    )
    .join("");
  const links = message.links
    .map(
      (link, index) =>
        `<a href="${escapeHtml(link.url)}" style="${index === 0 ? "display:inline-block;padding:8px 14px;background:#1d4ed8;color:#ffffff;border-radius:6px;text-decoration:none" : "color:#1d4ed8"}">${escapeHtml(link.label)}</a>`,
    )
    .join(" &nbsp; ");
  const unsubscribe =
    message.unsubscribe === undefined
      ? ""
      : ` <a href="${escapeHtml(message.unsubscribe)}" style="color:#6b7280">Unsubscribe</a>`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(message.subject)}</title></head>
<body style="margin:0;padding:24px;font:15px/1.5 system-ui,-apple-system,Segoe UI,sans-serif;color:#1c2330;background:#ffffff">
<p style="font-size:17px;font-weight:600;margin:0 0 16px">${escapeHtml(message.headline)}</p>
<table role="presentation" style="border-collapse:collapse;margin:0 0 20px">${rows}</table>
<p style="margin:0 0 24px">${links}</p>
<p style="margin:0;font-size:13px;color:#6b7280">${escapeHtml(message.footer)}${unsubscribe}</p>
</body></html>`;
  return { subject: message.subject, text, html };
}

/** Slack's mrkdwn treats `&`, `<` and `>` as markup: a brand's name must not become a link. */
function mrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * A Slack incoming-webhook body: `text` (the notification's fallback) and Block Kit `blocks` — a
 * header, the headline, the facts as mrkdwn fields, and the links as buttons.
 */
export function slackBody(message: Message): string {
  const blocks: unknown[] = [
    { type: "header", text: { type: "plain_text", text: message.subject.slice(0, 150), emoji: false } },
    { type: "section", text: { type: "mrkdwn", text: `*${mrkdwn(message.headline)}*` } },
    {
      type: "section",
      // Slack takes at most 10 fields of at most 2,000 characters.
      fields: message.facts
        .slice(0, 10)
        .map((fact) => ({ type: "mrkdwn", text: `*${mrkdwn(fact.label)}*\n${mrkdwn(fact.value)}`.slice(0, 2000) })),
    },
    {
      type: "actions",
      elements: message.links.slice(0, 5).map((link, index) => ({
        type: "button",
        text: { type: "plain_text", text: link.label.slice(0, 75) },
        url: link.url,
        ...(index === 0 ? { style: "primary" } : {}),
      })),
    },
    { type: "context", elements: [{ type: "mrkdwn", text: mrkdwn(message.footer) }] },
  ];
  return JSON.stringify({ text: mrkdwn(`${message.subject}: ${message.headline}`), blocks });
}
