import type { Transporter } from "nodemailer";

interface Mail {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative of `text` (multipart/alternative). */
  html?: string;
  /** Extra headers, e.g. List-Unsubscribe. */
  headers?: Record<string, string>;
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
      await (await transport).sendMail({ from, ...mail });
    },
  };
}
