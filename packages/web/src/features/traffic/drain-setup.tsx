import type { ReactNode } from "react";
import { CopyField } from "../../components/copy-field.tsx";
import { publicV1Url } from "../../lib/api.ts";

const TOKEN = "<your ingest token>";

/** Fastly's log line, as its documentation's JSON example writes it, with the fields Sightline reads. */
const FASTLY_FORMAT = JSON.stringify({
  timestamp: '%{strftime(\\{"%Y-%m-%dT%H:%M:%S%z"\\}, time.start)}V',
  client_ip: "%{req.http.Fastly-Client-IP}V",
  request_method: "%{json.escape(req.method)}V",
  host: "%{if(req.http.Fastly-Orig-Host, req.http.Fastly-Orig-Host, req.http.Host)}V",
  url: "%{json.escape(req.url)}V",
  response_status: "%{resp.status}V",
  request_user_agent: "%{json.escape(req.http.User-Agent)}V",
  request_referer: "%{json.escape(req.http.Referer)}V",
});

function Provider({ name, children }: { name: string; children: ReactNode }) {
  return (
    <details className="group rounded-md border px-3 py-2 text-sm">
      <summary className="cursor-pointer rounded-sm font-medium focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
        {name}
      </summary>
      <div className="mt-2 grid gap-2 text-muted-foreground">{children}</div>
    </details>
  );
}

function Code({ children }: { children: ReactNode }) {
  return <code className="rounded bg-muted px-1 py-0.5 text-xs text-foreground wrap-anywhere">{children}</code>;
}

/**
 * How a log drain or a CDN sends the brand's logs by itself: the address, the header with an ingest
 * token, and the few settings of the usual providers (docs/traffic.md lists the fields each is read by).
 */
export function DrainSetup({ projectId }: { projectId: string }) {
  const address = publicV1Url("importProjectTrafficLogs", { params: { id: projectId } });
  const withFormat = (format: string) => `${address}?format=${format}`;
  return (
    <div className="grid gap-3">
      <div className="grid gap-3 sm:grid-cols-2">
        <CopyField label="Address to send logs to" value={address} />
        <CopyField label="Header" value={`Authorization: Bearer ${TOKEN}`} />
      </div>
      <p className="text-sm text-muted-foreground">
        Each push is a POST whose body is log lines (plain text or gzip, up to 256 MiB), in any format the upload reads.
        Add <Code>?format=…</Code> to the address to name the format rather than have it detected. The same lines sent
        twice are counted once.
      </p>
      <div className="grid gap-2">
        <Provider name="Cloudflare Logpush">
          <p>
            In Cloudflare: Analytics &amp; Logs → Logpush → Create a Logpush job → HTTP destination. As the destination,
            give the address with the token as a <Code>header_</Code> parameter (Cloudflare sends those as headers):
          </p>
          <Code>{`${withFormat("cloudflare")}&header_Authorization=Bearer%20${TOKEN}`}</Code>
          <p>
            Dataset: HTTP requests. Fields: <Code>EdgeStartTimestamp</Code>, <Code>ClientIP</Code>,{" "}
            <Code>ClientRequestMethod</Code>, <Code>ClientRequestHost</Code>, <Code>ClientRequestURI</Code>,{" "}
            <Code>EdgeResponseStatus</Code>, <Code>ClientRequestUserAgent</Code>, <Code>ClientRequestReferer</Code>.
          </p>
        </Provider>
        <Provider name="Vercel log drain">
          <p>
            In Vercel: Team Settings → Drains → Add drain → Logs, to a custom endpoint. Endpoint:{" "}
            <Code>{withFormat("vercel")}</Code>, format JSON or NDJSON, and a custom header <Code>Authorization</Code>{" "}
            with the value <Code>{`Bearer ${TOKEN}`}</Code>. Every source may be sent: Sightline reads the requests and
            skips build and function output.
          </p>
        </Provider>
        <Provider name="Fastly">
          <p>
            In Fastly: Logging → Create endpoint → HTTPS. URL: <Code>{withFormat("fastly")}</Code>; content type{" "}
            <Code>application/json</Code>, JSON entries newline delimited; custom header name <Code>Authorization</Code>
            , value <Code>{`Bearer ${TOKEN}`}</Code>. Log format:
          </p>
          <Code>{FASTLY_FORMAT}</Code>
          <p>
            Sightline agrees to take logs from every Fastly service when Fastly first asks (at{" "}
            <Code>/.well-known/fastly/logging/challenge</Code>), since each push still needs this brand's token.
          </p>
        </Provider>
        <Provider name="Your own server (nginx, Apache)">
          <p>Send each day's rotated log, for instance from cron after the rotation:</p>
          <Code>
            {`curl -X POST "${withFormat("combined")}" -H "Authorization: Bearer ${TOKEN}" -H "Content-Type: text/plain" --data-binary @/var/log/nginx/access.log.1`}
          </Code>
        </Provider>
      </div>
    </div>
  );
}
