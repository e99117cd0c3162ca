import { formatDate, formatDateTime, formatRelative } from "../lib/format.ts";

/** A date in the reader's locale ("23 Nov 2027"), the exact time on hover and for machines. */
export function DateText({ value, fallback = "—" }: { value: string | null | undefined; fallback?: string }) {
  if (!value) return <span className="text-muted-foreground">{fallback}</span>;
  return (
    <time dateTime={value} title={formatDateTime(value)}>
      {formatDate(value)}
    </time>
  );
}

/** "3 minutes ago", the exact time on hover. */
export function RelativeText({ value, fallback = "Never" }: { value: string | null | undefined; fallback?: string }) {
  if (!value) return <span className="text-muted-foreground">{fallback}</span>;
  return (
    <time dateTime={value} title={formatDateTime(value)}>
      {formatRelative(value)}
    </time>
  );
}
