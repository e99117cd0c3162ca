import {
  addStaff,
  agenciesOf,
  agencyAccess,
  agencyView,
  changeStaffRole,
  listStaff,
  removeStaff,
  renameAgency,
  startAgency,
} from "../../../services/agencies/agencies.ts";
import { agencyClients, createClient, updateClient } from "../../../services/agencies/clients.ts";
import { hostBranding } from "../../../services/agencies/hosts.ts";
import {
  AgencyClientListSchema,
  AgencyClientParams,
  AgencyClientSchema,
  AgencyCreateSchema,
  AgencyListSchema,
  AgencyParams,
  AgencyRenameSchema,
  AgencySchema,
  AgencyStaffListSchema,
  AgencyStaffParams,
  AgencyStaffSchema,
  ClientCreateSchema,
  ClientUpdateSchema,
  HostSchema,
  StaffAddSchema,
  StaffRemovedSchema,
  StaffRoleSchema,
} from "../../../services/agencies/schemas.ts";
import { agencyBrandingSettings, updateAgencyBranding } from "../../../services/branding/branding.ts";
import { BrandingSettingsSchema, UpdateBrandingSchema } from "../../../services/branding/schemas.ts";
import type { Deps } from "../../../services/context.ts";
import { defineRoute, type SessionRoute } from "../../route.ts";

function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The agency's routes (docs/agencies.md): any signed-in user reaches the agencies they are staff
 * of, and each route asks their role there (viewer reads; strategist runs pitches; admin manages
 * clients, caps, staff and branding). An agency they are not staff of is NOT_FOUND.
 */
export function agencyRoutes(deps: Deps): SessionRoute[] {
  return [
    defineRoute({
      operationId: "getHost",
      method: "GET",
      path: "/host",
      access: { kind: "public" },
      success: { status: 200, schema: HostSchema },
      handler: async ({ headers }) => {
        const { agency, branding } = await hostBranding(deps, headerOf(headers.host));
        return {
          agency,
          name: branding?.name ?? null,
          logo: branding?.logo ?? null,
          primary: branding?.primary ?? null,
          accent: branding?.accent ?? null,
          show_sightline: branding?.show_sightline ?? true,
        };
      },
    }),
    defineRoute({
      operationId: "listAgencies",
      method: "GET",
      path: "/agencies",
      access: { kind: "user" },
      success: { status: 200, schema: AgencyListSchema },
      handler: async ({ user }) => ({ data: await agenciesOf(deps, user.id) }),
    }),
    defineRoute({
      operationId: "createAgency",
      method: "POST",
      path: "/agencies",
      access: { kind: "user" },
      body: AgencyCreateSchema,
      success: { status: 201, schema: AgencySchema },
      handler: ({ user, body }) => startAgency(deps, user.id, body),
    }),
    defineRoute({
      operationId: "getAgency",
      method: "GET",
      path: "/agencies/:agency",
      access: { kind: "user" },
      params: AgencyParams,
      success: { status: 200, schema: AgencySchema },
      handler: async ({ user, params }) => agencyView(deps, await agencyAccess(deps, params.agency, user.id)),
    }),
    defineRoute({
      operationId: "renameAgency",
      method: "PATCH",
      path: "/agencies/:agency",
      access: { kind: "user" },
      params: AgencyParams,
      body: AgencyRenameSchema,
      success: { status: 200, schema: AgencySchema },
      handler: async ({ user, params, body }) =>
        renameAgency(deps, await agencyAccess(deps, params.agency, user.id, "admin"), body.name),
    }),
    defineRoute({
      operationId: "listAgencyClients",
      method: "GET",
      path: "/agencies/:agency/clients",
      access: { kind: "user" },
      params: AgencyParams,
      success: { status: 200, schema: AgencyClientListSchema },
      handler: async ({ user, params }) => agencyClients(deps, await agencyAccess(deps, params.agency, user.id)),
    }),
    defineRoute({
      operationId: "createAgencyClient",
      method: "POST",
      path: "/agencies/:agency/clients",
      access: { kind: "user" },
      params: AgencyParams,
      body: ClientCreateSchema,
      success: { status: 201, schema: AgencyClientSchema },
      handler: async ({ user, params, body }) =>
        createClient(deps, await agencyAccess(deps, params.agency, user.id, "admin"), body),
    }),
    defineRoute({
      operationId: "updateAgencyClient",
      method: "PATCH",
      path: "/agencies/:agency/clients/:workspace",
      access: { kind: "user" },
      params: AgencyClientParams,
      body: ClientUpdateSchema,
      success: { status: 200, schema: AgencyClientSchema },
      handler: async ({ user, params, body }) =>
        updateClient(deps, await agencyAccess(deps, params.agency, user.id, "admin"), params.workspace, body),
    }),
    defineRoute({
      operationId: "listAgencyStaff",
      method: "GET",
      path: "/agencies/:agency/staff",
      access: { kind: "user" },
      params: AgencyParams,
      success: { status: 200, schema: AgencyStaffListSchema },
      handler: async ({ user, params }) => ({
        data: await listStaff(deps, await agencyAccess(deps, params.agency, user.id)),
      }),
    }),
    defineRoute({
      operationId: "addAgencyStaff",
      method: "POST",
      path: "/agencies/:agency/staff",
      access: { kind: "user" },
      params: AgencyParams,
      body: StaffAddSchema,
      success: { status: 201, schema: AgencyStaffSchema },
      handler: async ({ user, params, body }) =>
        addStaff(deps, await agencyAccess(deps, params.agency, user.id, "admin"), body),
    }),
    defineRoute({
      operationId: "changeAgencyStaffRole",
      method: "PATCH",
      path: "/agencies/:agency/staff/:user",
      access: { kind: "user" },
      params: AgencyStaffParams,
      body: StaffRoleSchema,
      success: { status: 200, schema: AgencyStaffSchema },
      handler: async ({ user, params, body }) =>
        changeStaffRole(deps, await agencyAccess(deps, params.agency, user.id, "admin"), params.user, body.role),
    }),
    defineRoute({
      operationId: "removeAgencyStaff",
      method: "DELETE",
      path: "/agencies/:agency/staff/:user",
      access: { kind: "user" },
      params: AgencyStaffParams,
      success: { status: 200, schema: StaffRemovedSchema },
      handler: async ({ user, params }) => {
        await removeStaff(deps, await agencyAccess(deps, params.agency, user.id, "admin"), params.user);
        return { user_id: params.user, removed: true as const };
      },
    }),
    defineRoute({
      operationId: "getAgencyBranding",
      method: "GET",
      path: "/agencies/:agency/branding",
      access: { kind: "user" },
      params: AgencyParams,
      success: { status: 200, schema: BrandingSettingsSchema },
      handler: async ({ user, params }) =>
        agencyBrandingSettings(deps, (await agencyAccess(deps, params.agency, user.id)).id),
    }),
    defineRoute({
      operationId: "updateAgencyBranding",
      method: "PATCH",
      path: "/agencies/:agency/branding",
      access: { kind: "user" },
      params: AgencyParams,
      body: UpdateBrandingSchema,
      success: { status: 200, schema: BrandingSettingsSchema },
      handler: async ({ user, params, body }) =>
        updateAgencyBranding(deps, (await agencyAccess(deps, params.agency, user.id, "admin")).id, user.id, body),
    }),
  ];
}
