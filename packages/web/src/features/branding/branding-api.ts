import { queryOptions } from "@tanstack/react-query";
import type { BrandingSettings, DashboardOperations } from "../../generated/dashboard.ts";
import { appCall } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";

export type { BrandingSettings };
export type BrandingChange = DashboardOperations["updateBranding"]["body"];

/** How the workspace's reports, shared links and e-mails are signed: Settings → Branding reads it. */
export function brandingQuery(workspaceId: string) {
  return queryOptions({
    queryKey: keys.workspacePart(workspaceId, "branding"),
    queryFn: ({ signal }) => appCall("getBranding", { params: { workspace: workspaceId } }, { signal }),
  });
}

/** Only what is sent changes: a logo left out stays, `null` goes back to the default. */
export function updateBranding(workspaceId: string, body: BrandingChange): Promise<BrandingSettings> {
  return appCall("updateBranding", { params: { workspace: workspaceId }, body });
}
