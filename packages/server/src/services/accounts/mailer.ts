import type { Transporter } from "nodemailer";

/** A file sent with a message; with a `cid`, an image its HTML shows inline (`<img src="cid:…">`). */
interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
  cid?: string;
}

interface Mail {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative of `text` (multipart/alternative). */
  html?: string;
  /** Extra headers, e.g. List-Unsubscribe. */
  headers?: Record<string, string>;
  /**
   * The sender's display name for this message (a workspace's, for its e-mails), in place of the
   * configured From's; the address stays the configured one.
   */
  fromName?: string;
  attachments?: MailAttachment[];
}

/** The address of a From such as `Sightline <sightline@example.com>`, or the From itself. */
function fromAddress(from: string): string {
  return /<([^<>]+)>\s*$/.exec(from)?.[1]?.trim() ?? from.trim();
}

/** Sends e-mail: SMTP when `SMTP_URL` is configured (nodemailer), else none at all. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export function smtpMailer(url: string, from: string): Mailer {
  // nodemailer is loaded with the first message, not at start-up (issue 16).
  let transport: Promise<Transporter> | null = null;
  return {
    async send(mail) {
      transport ??= import("nodemailer").then(({ default: nodemailer }) => nodemailer.createTransport(url));
      const { fromName, ...message } = mail;
      await (await transport).sendMail({
        // nodemailer quotes and encodes the name as needed.
        from: fromName === undefined ? from : { name: fromName, address: fromAddress(from) },
        ...message,
      });
    },
  };
}
