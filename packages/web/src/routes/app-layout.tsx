import { useQuery } from "@tanstack/react-query";
import { Link, Navigate, Outlet, useLocation, useParams } from "@tanstack/react-router";
import { BookOpenIcon, BookTextIcon } from "lucide-react";
import { HostLogo, useHostName } from "../components/host-logo.tsx";
import { ErrorState, LoadingState } from "../components/page-states.tsx";
import { UserMenu } from "../features/shell/user-menu.tsx";
import { WorkspaceNav } from "../features/shell/workspace-nav.tsx";
import { WorkspaceSwitcher } from "../features/shell/workspace-switcher.tsx";
import { isUnauthenticated, lastWorkspace } from "../lib/navigation.ts";
import { meQuery } from "../lib/queries.ts";

/** Every signed-in page: the header (workspace switcher, navigation, user menu) over the page. */
export function AppLayout() {
  const me = useQuery(meQuery);
  const params = useParams({ strict: false });
  const location = useLocation();
  const hostName = useHostName();

  if (me.isError && isUnauthenticated(me.error)) {
    return <Navigate to="/sign-in" search={{ redirect: location.href }} />;
  }
  if (me.isPending) return <LoadingState className="justify-center py-20" label="Opening Sightline…" />;
  if (me.isError) {
    return (
      <main className="mx-auto max-w-md px-4 py-16">
        <ErrorState error={me.error} title="Sightline could not load your account" onRetry={() => me.refetch()} />
      </main>
    );
  }

  const { user, workspaces } = me.data;
  const remembered = lastWorkspace();
  const currentId =
    params.workspaceId ?? workspaces.find((workspace) => workspace.id === remembered)?.id ?? workspaces[0]?.id;

  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-card px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to main content
      </a>
      <header className="sticky top-0 z-40 border-b bg-card/95 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-3 sm:gap-3 sm:px-6">
          <Link
            to="/"
            aria-label={`${hostName ?? "Sightline"} home`}
            className="min-w-0 shrink-0 rounded-md focus-visible:ring-2 focus-visible:ring-ring"
          >
            <HostLogo compact />
          </Link>
          <span className="text-muted-foreground/50" aria-hidden="true">
            /
          </span>
          <WorkspaceSwitcher
            workspaces={workspaces}
            currentId={params.agencyId ? undefined : currentId}
            currentAgencyId={params.agencyId}
          />
          {params.workspaceId && <WorkspaceNav workspaceId={params.workspaceId} className="ml-2 hidden md:flex" />}
          <div className="ml-auto flex items-center gap-1">
            <Link
              to="/glossary"
              className="hidden items-center gap-1.5 rounded-md px-3 py-1.5 text-sm text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none sm:inline-flex"
            >
              <BookTextIcon className="size-4" aria-hidden="true" />
              Glossary
            </Link>
            <a
              href="/docs"
              className="hidden items-center gap-1.5 rounded-md px-3 py-1.5 text-sm text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none sm:inline-flex"
            >
              <BookOpenIcon className="size-4" aria-hidden="true" />
              API reference
            </a>
            <UserMenu user={user} />
          </div>
        </div>
        {params.workspaceId && (
          <WorkspaceNav workspaceId={params.workspaceId} className="border-t px-3 py-1.5 md:hidden" />
        )}
      </header>
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 outline-none sm:px-6 sm:py-8">
        <Outlet />
      </main>
    </div>
  );
}
