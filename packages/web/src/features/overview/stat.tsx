import type { ReactNode } from "react";
import { Spinner } from "../../components/page-states.tsx";

/** One headline figure with its label and what it counts. */
export function Stat({
  label,
  value,
  detail,
  loading,
}: {
  label: string;
  value: ReactNode;
  detail?: ReactNode;
  loading?: boolean;
}) {
  return (
    <div className="rounded-xl border bg-card p-4 shadow-xs sm:p-5">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="mt-1">
        {loading ? (
          <span role="status" className="flex h-8 items-center">
            <Spinner className="text-muted-foreground" />
            <span className="sr-only">Loading {label.toLowerCase()}</span>
          </span>
        ) : (
          <>
            <span className="text-2xl font-semibold tabular-nums">{value}</span>
            {detail && <span className="mt-0.5 block text-xs text-muted-foreground">{detail}</span>}
          </>
        )}
      </dd>
    </div>
  );
}
