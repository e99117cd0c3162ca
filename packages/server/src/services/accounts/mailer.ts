import nodemailer from "nodemailer";

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
  const transport = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
  };
}
