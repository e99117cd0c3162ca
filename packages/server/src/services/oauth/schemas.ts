import Type from "typebox";
import { component, Nullable, StringEnum, Timestamp } from "../../lib/schema.ts";
import { ROLES } from "../accounts/roles.ts";
import { SCOPES } from "../api-keys/scopes.ts";

/** The consent page's and Connected apps' shapes (docs/dashboard-api.md); not part of the public API. */

const Scopes = Type.Array(StringEnum(SCOPES));
const Param = Type.Optional(Type.String({ maxLength: 2_000 }));

/** An authorization request's parameters, as the client sent them to /oauth/authorize. */
const authorizationFields = {
  response_type: Param,
  client_id: Param,
  redirect_uri: Param,
  code_challenge: Param,
  code_challenge_method: Param,
  scope: Param,
  state: Param,
  resource: Param,
};

export const AuthorizationQuery = Type.Object(authorizationFields, { additionalProperties: false });

export const AuthorizationPreviewSchema = component(
  "AuthorizationPreview",
  Type.Object(
    {
      client: Type.Object(
        {
          id: Type.String(),
          name: Type.String({ description: "The name the application registered itself with: not verified." }),
          uri: Nullable(Type.String()),
          redirect_host: Type.String({
            description: "Where the member is sent back to: the host, or the app's scheme.",
          }),
        },
        { additionalProperties: false },
      ),
      requested_scopes: Scopes,
      workspaces: Type.Array(
        Type.Object(
          {
            id: Type.String(),
            name: Type.String(),
            role: StringEnum(ROLES),
            api_access: Type.Boolean({ description: "Whether its plan has API access, which connecting needs." }),
            grantable_scopes: Type.Array(StringEnum(SCOPES), {
              description: "What the member's role there can grant.",
            }),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  ),
);

export const AuthorizationDecisionSchema = Type.Object(
  {
    ...authorizationFields,
    decision: StringEnum(["allow", "deny"] as const),
    workspace_id: Type.Optional(Type.String({ maxLength: 100 })),
    scopes: Type.Optional(Type.Array(Type.String({ maxLength: 20 }), { maxItems: SCOPES.length })),
  },
  { additionalProperties: false },
);

export const AuthorizationRedirectSchema = component(
  "AuthorizationRedirect",
  Type.Object(
    { redirect_to: Type.String({ description: "Where to send the member's browser: back to the application." }) },
    { additionalProperties: false },
  ),
);

export const ConnectedAppSchema = component(
  "ConnectedApp",
  Type.Object(
    {
      id: Type.String(),
      object: Type.Literal("connected_app"),
      client: Type.Object(
        { id: Type.String(), name: Type.String(), uri: Nullable(Type.String()) },
        { additionalProperties: false },
      ),
      user: Type.Object(
        { id: Type.String(), name: Type.String(), email: Type.String() },
        { additionalProperties: false },
      ),
      scopes: Scopes,
      status: StringEnum(["active", "revoked", "expired", "no_access"] as const, {
        description: "`no_access`: the member who connected it is no longer in the workspace.",
      }),
      created_at: Timestamp,
      last_used_at: Nullable(Timestamp),
      revoked_at: Nullable(Timestamp),
    },
    { additionalProperties: false },
  ),
);

export const ConnectedAppListSchema = Type.Object(
  { data: Type.Array(ConnectedAppSchema) },
  { additionalProperties: false },
);
