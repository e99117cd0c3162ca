import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package) that keeps every message it accepts,
 * parsed (`mailparser`); it can answer the next recipients with a temporary failure (451).
 */
export class SmtpSink {
  readonly messages: ParsedMail[] = [];
  /** Recipients still to refuse with 451 before accepting again. */
  deferNext = 0;
  #server: SMTPServer | undefined;
  url = "";

  async start(): Promise<this> {
    this.#server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onRcptTo: (_address, _session, callback) => {
        if (this.deferNext > 0) {
          this.deferNext--;
          const error = Object.assign(new Error("Mailbox busy, try again later"), { responseCode: 451 });
          callback(error);
          return;
        }
        callback();
      },
      onData: (stream, _session, callback) => {
        simpleParser(stream).then(
          (mail) => {
            this.messages.push(mail);
            callback();
          },
          (error: Error) => callback(error),
        );
      },
    });
    const server = this.#server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.server.address() as AddressInfo;
    this.url = `smtp://127.0.0.1:${address.port}`;
    return this;
  }

  /** Messages sent to `address`. */
  to(address: string): ParsedMail[] {
    return this.messages.filter((mail) => {
      const to = Array.isArray(mail.to) ? mail.to : mail.to === undefined ? [] : [mail.to];
      return to.some((group) => group.value.some((entry) => entry.address?.toLowerCase() === address.toLowerCase()));
    });
  }

  /** Resolves once `count` messages have reached `address`, or rejects after `timeoutMs`. */
  async waitFor(address: string, count: number, timeoutMs = 15_000): Promise<ParsedMail[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.to(address).length < count) {
      if (Date.now() > deadline) throw new Error(`${this.to(address).length} of ${count} messages reached ${address}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.to(address);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }
}
