import { useQuery } from "@tanstack/react-query";
import { hostQuery } from "../lib/queries.ts";
import { cn } from "../lib/utils.ts";
import { Logo } from "./logo.tsx";

/**
 * The name this host goes by: an agency's on its custom host (with its logo), else Sightline's.
 * `undefined` while the host is being asked, so that nothing flashes Sightline's name first.
 */
export function useHostName(): string | undefined {
  const host = useQuery(hostQuery);
  if (host.isPending) return undefined;
  return host.data?.agency ? (host.data.name ?? "Sightline") : "Sightline";
}

/**
 * The mark at the top of the sign-in page and the app's header: the agency's logo and name on its
 * custom host, Sightline's word mark anywhere else. `compact` hides the name on a phone when a
 * logo stands for it.
 */
export function HostLogo({ className, compact = false }: { className?: string; compact?: boolean }) {
  const host = useQuery(hostQuery);
  if (host.isPending) return <span className={cn("inline-block h-6 w-24", className)} aria-hidden="true" />;
  const agency = host.data?.agency ? host.data : null;
  if (agency === null || agency.name === null) {
    return <Logo className={cn(compact && "[&>span:last-child]:hidden sm:[&>span:last-child]:inline", className)} />;
  }
  return (
    <span className={cn("inline-flex min-w-0 items-center gap-2 font-semibold tracking-tight", className)}>
      {agency.logo !== null && <img src={agency.logo} alt="" className="h-6 max-w-28 shrink-0 object-contain" />}
      {/* In the theme's colour: the agency's own may not read on a dark header. */}
      <span
        className={cn(
          "max-w-48 truncate",
          compact && (agency.logo !== null ? "hidden sm:inline" : "max-w-28 sm:max-w-48"),
        )}
      >
        {agency.name}
      </span>
    </span>
  );
}
