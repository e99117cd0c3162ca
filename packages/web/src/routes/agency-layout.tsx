import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link, Outlet, useLocation } from "@tanstack/react-router";
import { BuildingIcon } from "lucide-react";
import { ErrorState, LoadingState } from "../components/page-states.tsx";
import { Badge } from "../components/ui/badge.tsx";
import { Button } from "../components/ui/button.tsx";
import { agencyQuery } from "../features/agencies/agencies-api.ts";
import { AgencyProvider } from "../features/agencies/agency-context.tsx";
import { AGENCY_ROLE_LABELS } from "../features/agencies/agency-roles.ts";
import { CreditPool } from "../features/agencies/credit-pool.tsx";
import { isNotFound } from "../lib/navigation.ts";
import { useTitle } from "../lib/use-title.ts";
import { cn } from "../lib/utils.ts";

const route = getRouteApi("/_app/agency/$agencyId");

const tabClass =
  "inline-flex rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap text-muted-foreground transition-colors hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none";
const activeClass = "bg-accent text-foreground";

/** An agency's pages: its name, its credit pool, and its tabs (clients, pitches, settings) over the page. */
export function AgencyLayout() {
  const { agencyId } = route.useParams();
  const { pathname } = useLocation();
  const agency = useQuery(agencyQuery(agencyId));

  if (agency.isPending) return <LoadingState label="Loading the agency…" />;
  if (agency.isError) {
    if (isNotFound(agency.error)) return <AgencyNotFound />;
    return <ErrorState error={agency.error} onRetry={() => agency.refetch()} />;
  }
  const onPitches = pathname.startsWith(`/agency/${agencyId}/pitches`);
  return (
    <AgencyProvider value={agency.data}>
      <div className="grid gap-6">
        <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)] lg:items-start">
          <div className="min-w-0">
            <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
              <BuildingIcon className="size-4" aria-hidden="true" />
              Agency
            </p>
            <h1 className="mt-1 text-2xl font-semibold tracking-tight break-words">{agency.data.name}</h1>
            <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
              <Badge variant="muted">{AGENCY_ROLE_LABELS[agency.data.role].name}</Badge>
              <span>
                {agency.data.clients === 1 ? "1 client" : `${agency.data.clients} clients`}
                {agency.data.custom_host ? ` · reached at ${agency.data.custom_host}` : ""}
              </span>
            </p>
          </div>
          <CreditPool credits={agency.data.credits} />
        </div>
        <nav aria-label="Agency" className="overflow-x-auto border-b pb-2">
          <ul className="flex w-max gap-1">
            <li>
              <Link
                to="/agency/$agencyId"
                params={{ agencyId }}
                className={tabClass}
                activeOptions={{ exact: true }}
                activeProps={{ className: activeClass, "aria-current": "page" }}
              >
                Clients
              </Link>
            </li>
            <li>
              <Link
                to="/agency/$agencyId/pitches"
                params={{ agencyId }}
                className={cn(tabClass, onPitches && activeClass)}
                aria-current={onPitches ? "page" : undefined}
              >
                Pitches
              </Link>
            </li>
            <li>
              <Link
                to="/agency/$agencyId/settings"
                params={{ agencyId }}
                className={tabClass}
                activeProps={{ className: activeClass, "aria-current": "page" }}
              >
                Staff and branding
              </Link>
            </li>
          </ul>
        </nav>
        <Outlet />
      </div>
    </AgencyProvider>
  );
}

function AgencyNotFound() {
  useTitle("Agency not found");
  return (
    <div className="mx-auto flex max-w-md flex-col items-start gap-3 py-10">
      <h1 className="text-xl font-semibold">Agency not found</h1>
      <p className="text-sm text-muted-foreground">
        It may not exist, or you are not on its staff. Ask one of its admins to add you.
      </p>
      <Button asChild>
        <Link to="/">Go to your workspaces</Link>
      </Button>
    </div>
  );
}
