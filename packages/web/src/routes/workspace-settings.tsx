import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { hasAgencySection, WorkspaceAgencyCard } from "../features/agencies/workspace-agency-card.tsx";
import { ApiKeysCard } from "../features/api-keys/api-keys-card.tsx";
import { BrandingCard } from "../features/branding/branding-card.tsx";
import { ConnectedAppsCard } from "../features/connected-apps/connected-apps-card.tsx";
import { EnginesCard } from "../features/engines/engines-card.tsx";
import { MembersCard } from "../features/members/members-card.tsx";
import { UsageCard } from "../features/usage/usage-card.tsx";
import { WebhooksCard } from "../features/webhooks/webhooks-card.tsx";
import { WorkspaceCard } from "../features/workspace/workspace-card.tsx";
import { useWorkspace } from "../features/workspace/workspace-context.tsx";
import { meQuery } from "../lib/queries.ts";
import { useTitle } from "../lib/use-title.ts";

const SECTIONS = [
  { hash: "engines", label: "Engines" },
  { hash: "api-keys", label: "API keys" },
  { hash: "connected-apps", label: "Connected apps" },
  { hash: "webhooks", label: "Webhooks" },
  { hash: "usage", label: "Usage and plan" },
  { hash: "members", label: "Members" },
  { hash: "branding", label: "Branding" },
  { hash: "agency", label: "Agency" },
  { hash: "workspace", label: "Workspace" },
] as const;

export function WorkspaceSettingsPage() {
  const workspace = useWorkspace();
  useTitle(`Settings · ${workspace.name}`);
  const me = useQuery(meQuery);
  const summary = me.data?.workspaces.find((w) => w.id === workspace.id);
  const sections = SECTIONS.filter(({ hash }) => hash !== "agency" || hasAgencySection(summary));
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
        <p className="mt-1 text-sm text-muted-foreground">{workspace.name}</p>
      </div>
      {/* On a phone the row scrolls sideways; its right edge fades, so that the tabs past it show they are there. */}
      <nav
        aria-label="Settings sections"
        className="-mx-1 min-w-0 snap-x overflow-x-auto overscroll-x-contain [mask-image:linear-gradient(to_right,black_calc(100%-2rem),transparent)] sm:[mask-image:none]"
      >
        <ul className="flex w-max gap-1 px-1 pr-8 pb-1 sm:pr-1">
          {sections.map(({ hash, label }) => (
            <li key={hash}>
              <Link
                to="/w/$workspaceId/settings"
                params={{ workspaceId: workspace.id }}
                hash={hash}
                className="inline-flex snap-start rounded-full border bg-card px-3 py-1.5 text-sm whitespace-nowrap text-muted-foreground transition-colors hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              >
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <EnginesCard />
      <ApiKeysCard />
      <ConnectedAppsCard />
      <WebhooksCard />
      <UsageCard />
      <MembersCard />
      <BrandingCard />
      {summary && hasAgencySection(summary) && <WorkspaceAgencyCard workspace={workspace} summary={summary} />}
      <WorkspaceCard />
    </div>
  );
}
