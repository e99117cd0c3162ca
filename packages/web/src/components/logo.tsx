import { cn } from "../lib/utils.ts";

/** The word mark: an eye-line glyph and the name. */
export function Logo({ className }: { className?: string }) {
  return (
    <span className={cn("inline-flex items-center gap-2 font-semibold tracking-tight", className)}>
      <svg viewBox="0 0 24 24" className="size-6 text-primary" aria-hidden="true" focusable="false">
        <rect width="24" height="24" rx="6" fill="currentColor" />
        <path d="M4 12c2.2-3.6 5-5.4 8-5.4s5.8 1.8 8 5.4c-2.2 3.6-5 5.4-8 5.4S6.2 15.6 4 12Z" fill="white" />
        <circle cx="12" cy="12" r="2.6" fill="currentColor" />
      </svg>
      <span>Sightline</span>
    </span>
  );
}
