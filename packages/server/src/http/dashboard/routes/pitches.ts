import Type from "typebox";
import { Nullable } from "../../../lib/schema.ts";
import { agencyAccess } from "../../../services/agencies/agencies.ts";
import {
  convertPitch,
  createPitch,
  deletePitch,
  getPitch,
  listPitches,
  runPitch,
  sharePitch,
} from "../../../services/agencies/pitches.ts";
import {
  AgencyParams,
  PitchConvertSchema,
  PitchCreateSchema,
  PitchListSchema,
  PitchParams,
  PitchRunSchema,
  PitchSchema,
} from "../../../services/agencies/schemas.ts";
import type { Deps } from "../../../services/context.ts";
import { BrandSuggestionSchema } from "../../../services/websites/schemas.ts";
import { defineRoute, type SessionRoute } from "../../route.ts";

const PitchCreatedSchema = Type.Object(
  {
    pitch: PitchSchema,
    suggestion: Nullable(BrandSuggestionSchema),
    problem: Nullable(Type.String({ description: "Why the site could not be read, when it could not." })),
  },
  { additionalProperties: false },
);

const PitchDeletedSchema = Type.Object(
  { id: Type.String(), deleted: Type.Literal(true) },
  { additionalProperties: false },
);

/** Pitches (docs/agencies.md): strategists and admins make them; every member of staff reads them. */
export function pitchRoutes(deps: Deps): SessionRoute[] {
  return [
    defineRoute({
      operationId: "listPitches",
      method: "GET",
      path: "/agencies/:agency/pitches",
      access: { kind: "user" },
      params: AgencyParams,
      success: { status: 200, schema: PitchListSchema },
      handler: async ({ user, params }) => ({
        data: await listPitches(deps, await agencyAccess(deps, params.agency, user.id), user.id),
      }),
    }),
    defineRoute({
      operationId: "createPitch",
      method: "POST",
      path: "/agencies/:agency/pitches",
      access: { kind: "user" },
      params: AgencyParams,
      body: PitchCreateSchema,
      success: { status: 201, schema: PitchCreatedSchema },
      handler: async ({ user, params, body }) =>
        createPitch(deps, await agencyAccess(deps, params.agency, user.id, "strategist"), user.id, body.website),
    }),
    defineRoute({
      operationId: "getPitch",
      method: "GET",
      path: "/agencies/:agency/pitches/:pitch",
      access: { kind: "user" },
      params: PitchParams,
      success: { status: 200, schema: PitchSchema },
      handler: async ({ user, params }) =>
        getPitch(deps, await agencyAccess(deps, params.agency, user.id), user.id, params.pitch),
    }),
    defineRoute({
      operationId: "runPitch",
      method: "POST",
      path: "/agencies/:agency/pitches/:pitch/run",
      access: { kind: "user" },
      params: PitchParams,
      body: PitchRunSchema,
      success: { status: 202, schema: PitchSchema },
      handler: async ({ user, params, body }) =>
        runPitch(deps, await agencyAccess(deps, params.agency, user.id, "strategist"), user.id, params.pitch, body),
    }),
    defineRoute({
      operationId: "sharePitch",
      method: "POST",
      path: "/agencies/:agency/pitches/:pitch/share",
      access: { kind: "user" },
      params: PitchParams,
      success: { status: 200, schema: PitchSchema },
      handler: async ({ user, params }) =>
        sharePitch(deps, await agencyAccess(deps, params.agency, user.id, "strategist"), user.id, params.pitch),
    }),
    defineRoute({
      operationId: "convertPitch",
      method: "POST",
      path: "/agencies/:agency/pitches/:pitch/convert",
      access: { kind: "user" },
      params: PitchParams,
      body: PitchConvertSchema,
      success: { status: 200, schema: PitchSchema },
      handler: async ({ user, params, body }) =>
        convertPitch(deps, await agencyAccess(deps, params.agency, user.id, "admin"), user.id, params.pitch, body),
    }),
    defineRoute({
      operationId: "deletePitch",
      method: "DELETE",
      path: "/agencies/:agency/pitches/:pitch",
      access: { kind: "user" },
      params: PitchParams,
      success: { status: 200, schema: PitchDeletedSchema },
      handler: async ({ user, params }) => {
        await deletePitch(deps, await agencyAccess(deps, params.agency, user.id, "strategist"), user.id, params.pitch);
        return { id: params.pitch, deleted: true as const };
      },
    }),
  ];
}
