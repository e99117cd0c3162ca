/**
 * What an alert or a digest says, before it is written for e-mail (branding/email.ts, in the
 * workspace's branding) or for Slack.
 */
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
