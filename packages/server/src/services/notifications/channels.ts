import { ApiError, type ErrorDetail } from "../../errors/api-error.ts";
import { isEmailAddress } from "../../lib/email.ts";
import type { AlertChannelCheck } from "../context.ts";
import type { StoredAlertChannels } from "../monitoring/types.ts";
import { checkTargetUrl } from "../webhooks/target.ts";

/** The mark of a masked URL: never part of a URL anyone can send (it would be percent-encoded). */
const ELLIPSIS = "…";

/**
 * The masked form of an incoming-webhook URL, shown in place of it: the origin, the first path
 * segment, the next one's first character and the URL's last four characters:
 * `https://hooks.slack.com/services/T…/…abcd`. The token (the last segment) is never shown whole.
 */
function maskUrl(raw: string): string {
  const url = new URL(raw);
  const secret = `${url.pathname}${url.search}`;
  const [first, second] = url.pathname.split("/").filter((part) => part !== "");
  const tail = secret.length >= 16 ? secret.slice(-4) : "";
  const lead = first === undefined ? "" : second === undefined ? `/${first.slice(0, 1)}${ELLIPSIS}` : `/${first}`;
  const next = second === undefined ? "" : `/${second.slice(0, 1)}${ELLIPSIS}`;
  return `${url.origin}${lead}${next}/${ELLIPSIS}${tail}`;
}

/** The ApiError's details, or the error itself when it is not a validation error. */
function detailsOf(error: unknown): ErrorDetail[] {
  if (error instanceof ApiError && error.code === "VALIDATION_ERROR") return error.details ?? [];
  throw error;
}

/**
 * Checks one alert rule's channels (deps.alertChannels): e-mail addresses (at most 20, only when the
 * server can send e-mail) and the Slack URL, held to the webhooks' outbound address policy (https,
 * no credentials, every resolved address public — checked again at each delivery), then encrypted.
 * A masked URL sent back keeps the stored URL it masks.
 */
export const checkAlertChannels: AlertChannelCheck = async (ctx, input, kept, field, details) => {
  const out: StoredAlertChannels = {};
  if (input.email !== undefined && input.email.length > 0) {
    if (ctx.mailer === null) {
      details.push({
        field: `${field}.email`,
        issue:
          "e-mail is not configured on this server (SMTP_URL): ask its operator, or use a webhook or Slack instead",
      });
    }
    const addresses: string[] = [];
    for (const [index, given] of input.email.entries()) {
      const address = given.trim().toLowerCase();
      if (!isEmailAddress(address)) {
        details.push({ field: `${field}.email[${index}]`, issue: "must be an e-mail address" });
      } else if (!addresses.includes(address)) {
        addresses.push(address);
      }
    }
    out.email = addresses;
  }
  const slack = input.slack?.trim();
  if (slack !== undefined && slack !== "") {
    const slackField = `${field}.slack`;
    if (slack.includes(ELLIPSIS)) {
      // The masked form, sent back: keep the URL it stands for, if this schedule holds it.
      const matches = [...new Set(kept.flatMap((c) => (c.slack?.hint === slack ? [c.slack.ciphertext] : [])))];
      const [ciphertext] = matches;
      if (ciphertext === undefined) {
        details.push({
          field: slackField,
          issue: "is a masked URL this schedule does not hold: send the full incoming-webhook URL",
        });
      } else {
        out.slack = { ciphertext, hint: slack };
      }
    } else {
      try {
        const url = await checkTargetUrl(slack, ctx.webhookTargets, slackField);
        // Plain http only where the operator allows private receivers (local development, tests).
        if (!url.startsWith("https:") && !ctx.webhookTargets.allowPrivate) {
          details.push({ field: slackField, issue: "must use https" });
        } else {
          out.slack = { ciphertext: ctx.secrets.encrypt(url), hint: maskUrl(url) };
        }
      } catch (error) {
        details.push(...detailsOf(error));
      }
    }
  }
  return out.email === undefined && out.slack === undefined ? undefined : out;
};
