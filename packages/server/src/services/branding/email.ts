import { escapeHtml } from "../../lib/html.ts";
import { type Branding, DEFAULT_BRANDING } from "./types.ts";

/**
 * A workspace's e-mails (alerts, digests, invitations) dressed in its branding: its name as the
 * sender's and at the top, its logo attached inline (mail clients block `data:` images, and
 * fetching one from this server would tell it who opened what), its colours on the heading rule
 * and the links, and "Made with Sightline" only when the workspace shows it.
 */

/** What an e-mail says, before it is dressed. */
export interface EmailContent {
  subject: string;
  /** One sentence: what happened. */
  headline: string;
  facts: { label: string; value: string }[];
  /** The first is the main one (a button). */
  links: { label: string; url: string }[];
  unsubscribe?: string;
  footer: string;
}

/** An image the HTML shows as `cid:<cid>`. */
interface InlineImage {
  filename: string;
  content: Buffer;
  contentType: string;
  cid: string;
}

export interface BrandedEmail {
  subject: string;
  text: string;
  html: string;
  /** The sender's display name: the workspace's, never the server's when it hides Sightline. */
  fromName: string;
  attachments: InlineImage[];
}

/** Neutral on purpose: the identifiers of a message are seen by anyone who reads its source. */
const LOGO_CID = "brand-logo";

const LOGO_DATA_URL = /^data:(image\/(?:png|jpeg));base64,([A-Za-z0-9+/]+={0,2})$/;

/** The logo as an attachment, or null when the workspace has none. */
function logoImage(branding: Branding): InlineImage | null {
  const match = branding.logo === null ? null : LOGO_DATA_URL.exec(branding.logo);
  if (match === null) return null;
  const contentType = match[1] ?? "image/png";
  return {
    filename: contentType === "image/png" ? "logo.png" : "logo.jpg",
    content: Buffer.from(match[2] ?? "", "base64"),
    contentType,
    cid: LOGO_CID,
  };
}

/** WCAG's relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const channel = (at: number) => {
    const value = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** White or dark text on `background`, whichever reads better: a workspace's colour may be light. */
export function textOn(background: string): string {
  const l = luminance(background);
  return 1.05 / (l + 0.05) >= (l + 0.05) / (luminance("#1c2330") + 0.05) ? "#ffffff" : "#1c2330";
}

/** A colour as `#rrggbb`, or the default: whatever a caller passes, nothing else reaches a style attribute. */
function safeColor(value: string, fallback: string): string {
  return /^#[0-9a-f]{6}$/i.test(value) ? value : fallback;
}

/** Multipart e-mail: the same facts and links as plain text and as simple inline-styled HTML. */
export function brandedEmail(content: EmailContent, given: Branding): BrandedEmail {
  const branding = {
    ...given,
    primary: safeColor(given.primary, DEFAULT_BRANDING.primary),
    accent: safeColor(given.accent, DEFAULT_BRANDING.accent),
  };
  const logo = logoImage(branding);
  const madeWith = branding.show_sightline ? "Made with Sightline" : null;
  const text = [
    branding.name,
    "",
    content.headline,
    "",
    ...content.facts.map((fact) => `${fact.label}: ${fact.value}`),
    "",
    ...content.links.map((link) => `${link.label}: ${link.url}`),
    "",
    content.footer,
    ...(content.unsubscribe === undefined ? [] : [`Unsubscribe: ${content.unsubscribe}`]),
    ...(madeWith === null ? [] : ["", madeWith]),
  ].join("\n");
  const name = escapeHtml(branding.name);
  const header = `<table role="presentation" style="border-collapse:collapse;width:100%;margin:0 0 20px;border-bottom:3px solid ${branding.primary}"><tr>${
    logo === null
      ? ""
      : `<td style="padding:0 12px 12px 0;width:1%;vertical-align:middle"><img src="cid:${LOGO_CID}" alt="${name}" height="40" style="display:block;height:40px;width:auto;max-width:200px;border:0"></td>`
  }<td style="padding:0 0 12px;vertical-align:middle;font-size:16px;font-weight:700;color:${branding.primary}">${name}</td></tr></table>`;
  const rows = content.facts
    .map(
      (fact) =>
        `<tr><th align="left" style="padding:4px 12px 4px 0;vertical-align:top;font-weight:600">${escapeHtml(fact.label)}</th><td style="padding:4px 0">${escapeHtml(fact.value)}</td></tr>`,
    )
    .join("");
  const links = content.links
    .map(
      (link, index) =>
        `<a href="${escapeHtml(link.url)}" style="${index === 0 ? `display:inline-block;padding:8px 14px;background:${branding.primary};color:${textOn(branding.primary)};border-radius:6px;text-decoration:none` : `color:${branding.accent}`}">${escapeHtml(link.label)}</a>`,
    )
    .join(" &nbsp; ");
  const unsubscribe =
    content.unsubscribe === undefined
      ? ""
      : ` <a href="${escapeHtml(content.unsubscribe)}" style="color:#6b7280">Unsubscribe</a>`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:24px;font:15px/1.5 system-ui,-apple-system,Segoe UI,sans-serif;color:#1c2330;background:#ffffff">
${header}
<p style="font-size:17px;font-weight:600;margin:0 0 16px">${escapeHtml(content.headline)}</p>
${rows === "" ? "" : `<table role="presentation" style="border-collapse:collapse;margin:0 0 20px">${rows}</table>\n`}<p style="margin:0 0 24px">${links}</p>
<p style="margin:0;font-size:13px;color:#6b7280">${escapeHtml(content.footer)}${unsubscribe}</p>
${madeWith === null ? "" : `<p style="margin:12px 0 0;font-size:12px;color:#9ca3af">${madeWith}</p>\n`}</body></html>`;
  return {
    subject: content.subject,
    text,
    html,
    fromName: branding.name,
    attachments: logo === null ? [] : [logo],
  };
}
