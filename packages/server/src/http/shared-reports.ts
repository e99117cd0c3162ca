import type { FastifyInstance, FastifyReply } from "fastify";
import Type from "typebox";
import { contentDisposition } from "../lib/content-disposition.ts";
import { Gate } from "../lib/gate.ts";
import { brandingOfReport } from "../services/branding/branding.ts";
import type { Deps } from "../services/context.ts";
import { reportHtml } from "../services/reports/render/html.ts";
import { reportPdf } from "../services/reports/render/pdf.ts";
import { sharedReport } from "../services/reports/shares.ts";
import { reportFileName } from "../services/reports/titles.ts";

/** What every answer of a shared link carries: nothing cached, indexed or leaked through a Referer. */
const PRIVATE = {
  "cache-control": "private, no-store",
  "referrer-policy": "no-referrer",
  "x-robots-tag": "noindex, nofollow",
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'",
  "x-frame-options": "DENY",
};

/**
 * What one client and one link may ask of this public route (docs/security.md). Every request
 * counts against its address, a forged or expired token included (checking one costs an HMAC, and
 * the count makes guessing slow); a valid link also counts against itself, from whatever address.
 * PDFs are drawn a few at a time per process, with a short line behind them.
 */
export const SHARED_REPORT_LIMITS = {
  perAddressPerMinute: 60,
  perLinkPerMinute: 300,
  pdfsAtOnce: 2,
  pdfsWaiting: 8,
} as const;

const BUSY = (
  seconds: number,
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Too many requests</title>
<style>body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1c2330}main{max-width:560px;margin:15vh auto;padding:0 24px}h1{font-size:22px}</style></head>
<body><main><h1>Too many requests</h1><p>This report was asked for too often in the last minute. Try again in ${seconds} seconds.</p></main></body></html>`;

const GONE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Link not available</title>
<style>body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1c2330}main{max-width:560px;margin:15vh auto;padding:0 24px}h1{font-size:22px}</style></head>
<body><main><h1>This link is not available</h1><p>The report it shared has expired, was revoked, or never existed. Ask whoever sent it for a new link.</p></main></body></html>`;

/**
 * `GET /shared/reports/:token`: the report a shared link opens, without an account (HTML, or the
 * PDF with `?format=pdf`). Only that report, read-only: it carries no session, no key and no link
 * to anything else; every other answer is the same 404 page, whatever the reason.
 */
export function registerSharedReports(app: FastifyInstance, deps: Deps): void {
  const byAddress = deps.counters.counter("shared-report:address", 60);
  const byLink = deps.counters.counter("shared-report:link", 60);
  const pdfs = new Gate(SHARED_REPORT_LIMITS.pdfsAtOnce, SHARED_REPORT_LIMITS.pdfsWaiting);
  const tooMany = (reply: FastifyReply, seconds: number) =>
    reply.code(429).header("retry-after", String(seconds)).type("text/html; charset=utf-8").send(BUSY(seconds));
  app.get(
    "/shared/reports/:token",
    {
      schema: {
        params: Type.Object({ token: Type.String({ maxLength: 200 }) }),
        querystring: Type.Object({ format: Type.Optional(Type.String({ maxLength: 10 })) }),
      },
      // Any malformed input is the same 404 page, never an API error envelope.
      errorHandler: (_error, _request, reply) =>
        reply.code(404).headers(PRIVATE).type("text/html; charset=utf-8").send(GONE),
    },
    async (request, reply) => {
      reply.headers(PRIVATE);
      const fromAddress = await byAddress.hit(request.ip);
      if (fromAddress.count > SHARED_REPORT_LIMITS.perAddressPerMinute) {
        return tooMany(reply, Math.max(1, Math.ceil(fromAddress.msBeforeReset / 1000)));
      }
      const { token } = request.params as { token: string };
      const { format } = request.query as { format?: string };
      const report =
        format === undefined || format === "html" || format === "pdf" ? await sharedReport(deps, token) : null;
      if (report === null) return reply.code(404).type("text/html; charset=utf-8").send(GONE);
      // A valid token's first part is its link's id.
      const ofLink = await byLink.hit(token.slice(0, token.indexOf(".")));
      if (ofLink.count > SHARED_REPORT_LIMITS.perLinkPerMinute) {
        return tooMany(reply, Math.max(1, Math.ceil(ofLink.msBeforeReset / 1000)));
      }
      // The workspace's name, logo and colours: the page is the one its client opens.
      const branding = await brandingOfReport(deps, report.id);
      if (format === "pdf") {
        const drawn = await pdfs.run(() => reportPdf(report, branding));
        if (drawn.full) return tooMany(reply, 5);
        reply.header("content-disposition", contentDisposition(reportFileName(report.title, "pdf")));
        return reply.type("application/pdf").send(drawn.value);
      }
      return reply.type("text/html; charset=utf-8").send(reportHtml(report, branding));
    },
  );
}
