import type { ReactNode } from "react";
import { useTitle } from "../lib/use-title.ts";
import { HostLogo } from "./host-logo.tsx";

/**
 * The frame of the pages one sees before signing in: the logo (an agency's on its custom host) and
 * one centred card.
 */
export function AuthLayout({
  title,
  description,
  children,
  footer,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  useTitle(title);
  return (
    <div className="flex min-h-screen flex-col items-center px-4 py-10 sm:py-16">
      <header className="mb-8">
        <HostLogo className="text-lg" />
      </header>
      <main className="w-full max-w-md">
        <div className="rounded-xl border bg-card p-5 shadow-xs sm:p-8">
          <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
          {description && <div className="mt-2 text-sm text-muted-foreground">{description}</div>}
          <div className="mt-6">{children}</div>
        </div>
        {footer && <div className="mt-6 text-center text-sm text-muted-foreground">{footer}</div>}
      </main>
    </div>
  );
}
