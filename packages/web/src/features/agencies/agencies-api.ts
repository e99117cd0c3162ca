import { queryOptions } from "@tanstack/react-query";
import type {
  Agency,
  AgencyClient,
  AgencyRole,
  AgencyStaff,
  BrandingSettings,
  DashboardOperations,
} from "../../generated/dashboard.ts";
import { appCall } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";

/** The agency's routes (docs/agencies.md), reached by its staff: the shapes are the generated client's. */

export type { Agency, AgencyClient, AgencyRole, AgencyStaff };
export type ClientChange = DashboardOperations["updateAgencyClient"]["body"];
type BrandingChange = DashboardOperations["updateAgencyBranding"]["body"];

/** The agencies the user is staff of, by name. */
export const agenciesQuery = queryOptions({
  queryKey: keys.agencies,
  queryFn: ({ signal }) => appCall("listAgencies", {}, { signal }),
  staleTime: 30_000,
});

export function agencyQuery(agencyId: string) {
  return queryOptions({
    queryKey: keys.agency(agencyId),
    queryFn: ({ signal }) => appCall("getAgency", { params: { agency: agencyId } }, { signal }),
  });
}

export function clientsQuery(agencyId: string) {
  return queryOptions({
    queryKey: keys.agencyPart(agencyId, "clients"),
    queryFn: ({ signal }) => appCall("listAgencyClients", { params: { agency: agencyId } }, { signal }),
  });
}

export function staffQuery(agencyId: string) {
  return queryOptions({
    queryKey: keys.agencyPart(agencyId, "staff"),
    queryFn: ({ signal }) => appCall("listAgencyStaff", { params: { agency: agencyId } }, { signal }),
  });
}

export function agencyBrandingQuery(agencyId: string) {
  return queryOptions({
    queryKey: keys.agencyPart(agencyId, "branding"),
    queryFn: ({ signal }) => appCall("getAgencyBranding", { params: { agency: agencyId } }, { signal }),
  });
}

/** An agency started by the owner of a workspace on the Agency plan: they are its admin, the workspace its first client. */
export function startAgency(name: string, workspaceId: string): Promise<Agency> {
  return appCall("createAgency", { body: { name, workspace_id: workspaceId } });
}

export function renameAgency(agencyId: string, name: string): Promise<Agency> {
  return appCall("renameAgency", { params: { agency: agencyId }, body: { name } });
}

export function createClient(agencyId: string, name: string, creditCap: number | null): Promise<AgencyClient> {
  return appCall("createAgencyClient", { params: { agency: agencyId }, body: { name, credit_cap: creditCap } });
}

export function updateClient(agencyId: string, workspaceId: string, body: ClientChange): Promise<AgencyClient> {
  return appCall("updateAgencyClient", { params: { agency: agencyId, workspace: workspaceId }, body });
}

export function addStaff(agencyId: string, email: string, role: AgencyRole): Promise<AgencyStaff> {
  return appCall("addAgencyStaff", { params: { agency: agencyId }, body: { email, role } });
}

export function changeStaffRole(agencyId: string, userId: string, role: AgencyRole): Promise<AgencyStaff> {
  return appCall("changeAgencyStaffRole", { params: { agency: agencyId, user: userId }, body: { role } });
}

export function removeStaff(agencyId: string, userId: string): Promise<unknown> {
  return appCall("removeAgencyStaff", { params: { agency: agencyId, user: userId } });
}

export function updateAgencyBranding(agencyId: string, body: BrandingChange): Promise<BrandingSettings> {
  return appCall("updateAgencyBranding", { params: { agency: agencyId }, body });
}
