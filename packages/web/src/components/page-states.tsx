import { AlertCircleIcon, Loader2Icon } from "lucide-react";
import type { ReactNode } from "react";
import { errorMessage } from "../lib/api.ts";
import { cn } from "../lib/utils.ts";
import { Button } from "./ui/button.tsx";

export function Spinner({ className }: { className?: string }) {
  return <Loader2Icon className={cn("size-4 animate-spin", className)} aria-hidden="true" />;
}

/** A polite "loading" line; screen readers hear the label once. */
export function LoadingState({ label = "Loading…", className }: { label?: string; className?: string }) {
  return (
    <div role="status" className={cn("flex items-center gap-2 py-6 text-sm text-muted-foreground", className)}>
      <Spinner />
      <span>{label}</span>
    </div>
  );
}

export function ErrorState({
  error,
  title = "This could not be loaded",
  onRetry,
  className,
}: {
  error: unknown;
  title?: string;
  onRetry?: () => void;
  className?: string;
}) {
  return (
    <div
      role="alert"
      className={cn(
        "flex flex-col items-start gap-3 rounded-lg border border-destructive/30 bg-destructive/5 p-4 text-sm",
        className,
      )}
    >
      <div className="flex items-start gap-2">
        <AlertCircleIcon className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
        <div>
          <p className="font-medium">{title}</p>
          <p className="mt-1 text-muted-foreground">{errorMessage(error)}</p>
        </div>
      </div>
      {onRetry && (
        <Button variant="outline" size="sm" onClick={onRetry}>
          Try again
        </Button>
      )}
    </div>
  );
}

interface QueryLike<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** A query's loading line, or its error with "Try again"; nothing once its data is there. */
export function QueryState({
  query,
  loading,
  error,
  className,
}: {
  query: QueryLike<unknown>;
  loading: string;
  /** The error's title: "The brands could not be loaded". */
  error: string;
  /** Of the loading line. */
  className?: string;
}) {
  if (query.isPending) return <LoadingState label={loading} className={className} />;
  if (query.isError) return <ErrorState error={query.error} title={error} onRetry={() => query.refetch()} />;
  return null;
}

export function EmptyState({
  icon,
  title,
  children,
  className,
}: {
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div
      className={cn(
        "flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-8 text-center text-sm",
        className,
      )}
    >
      {icon && <div className="text-muted-foreground [&_svg]:size-6">{icon}</div>}
      <p className="font-medium">{title}</p>
      {children && <div className="max-w-md text-muted-foreground">{children}</div>}
    </div>
  );
}

/** A short note for members whose role does not allow an action. */
export function RoleNote({ children }: { children: ReactNode }) {
  return <p className="rounded-md bg-muted px-3 py-2 text-sm text-muted-foreground">{children}</p>;
}
