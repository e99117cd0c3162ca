import type { AccessBot, Verification } from "./traffic-api.ts";
import type { LogFormat } from "./upload-logs.ts";

/**
 * The Traffic page's words, in one place: what the API calls `bot_hits`, `verification` or
 * `verdict`, as a marketer reads it. A crawl is one request of one page by an AI engine's crawler;
 * a referred visit is a person arriving from a link in an AI engine's answer.
 */

export const VERIFICATION: Record<Verification, { label: string; explain: string }> = {
  verified: {
    label: "Verified",
    explain: "came from an address its operator publishes for it: the crawler really is who it says",
  },
  unverifiable: {
    label: "Unverifiable",
    explain: "its operator publishes no list of addresses to check against: probably genuine, not proven",
  },
  spoofed: {
    label: "Spoofed",
    explain: "claimed to be the crawler from an address that is not its operator's: someone else pretending",
  },
};

export const VERDICT: Record<
  AccessBot["verdict"],
  { label: string; variant: "success" | "warning" | "destructive" | "muted" }
> = {
  allowed: { label: "Allowed", variant: "success" },
  partial: { label: "Partly blocked", variant: "warning" },
  blocked: { label: "Blocked", variant: "destructive" },
  unknown: { label: "Not known", variant: "muted" },
};

export const PURPOSE: Record<AccessBot["purpose"], string> = {
  search: "Finds pages for the engine's answers",
  fetch: "Reads a page when someone asks the engine about it",
  training: "Collects pages to train AI models",
  index: "Search engine crawler that AI answers also read",
};

export const FORMATS: { value: LogFormat; label: string }[] = [
  { value: "combined", label: "nginx or Apache (combined)" },
  { value: "common", label: "nginx or Apache (common)" },
  { value: "cloudfront", label: "Amazon CloudFront" },
  { value: "cloudflare", label: "Cloudflare Logpush (JSON)" },
  { value: "vercel", label: "Vercel log drain (JSON)" },
  { value: "fastly", label: "Fastly logging (JSON)" },
  { value: "jsonl", label: "Other JSON lines" },
];

export function formatName(format: LogFormat): string {
  return FORMATS.find((f) => f.value === format)?.label ?? format;
}

/** "12.4 MB": bytes as a person reads them (decimal units, as file managers show them). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  const units = ["kB", "MB", "GB", "TB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${new Intl.NumberFormat(undefined, { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(value)} ${units[unit]}`;
}
