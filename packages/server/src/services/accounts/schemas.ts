import Type from "typebox";
import { component, Nullable, StringEnum, Timestamp } from "../../lib/schema.ts";
import { ROLES } from "./roles.ts";

/** The shapes of the dashboard's own routes (docs/dashboard-api.md); not part of the public API. */

const Role = component("Role", StringEnum(ROLES));
const Email = Type.String({ minLength: 3, maxLength: 254 });

export const SetupSchema = component(
  "Setup",
  Type.Object(
    { needs_setup: Type.Boolean(), open_signup: Type.Boolean(), email_delivery: Type.Boolean() },
    { additionalProperties: false },
  ),
);

const UserSchema = component(
  "User",
  Type.Object({ id: Type.String(), name: Type.String(), email: Type.String() }, { additionalProperties: false }),
);

export const SignUpSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    email: Email,
    password: Type.String({ minLength: 10, maxLength: 128 }),
    workspace_name: Type.Optional(Type.String({ maxLength: 100 })),
    invitation: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    /** The first account only: the code the server prints at start (`sightline setup-code`). */
    setup_code: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: false },
);

export const SignedUpSchema = component(
  "SignedUp",
  Type.Object({ user: UserSchema, workspace_id: Type.String() }, { additionalProperties: false }),
);

export const UserWorkspaceSchema = component(
  "UserWorkspace",
  Type.Object(
    {
      id: Type.String(),
      name: Type.String(),
      plan: Type.String(),
      role: Role,
      /** The agency that owns the workspace, when one does (a client of it). */
      agency: Nullable(Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false })),
    },
    { additionalProperties: false },
  ),
);

export const MeSchema = component(
  "Me",
  Type.Object({ user: UserSchema, workspaces: Type.Array(UserWorkspaceSchema) }, { additionalProperties: false }),
);

export const WorkspaceNameSchema = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);

export const WorkspaceDetailsSchema = component(
  "Workspace",
  Type.Object(
    {
      id: Type.String(),
      name: Type.String(),
      plan: Type.String(),
      role: Role,
      api_access: Type.Boolean(),
      requests_per_minute: Nullable(Type.Integer()),
      credits_per_month: Type.Integer(),
      engines: Type.Array(Type.String()),
      agency: Nullable(
        Type.Object(
          {
            id: Type.String(),
            name: Type.String(),
            credit_cap: Nullable(Type.Integer({ description: "The client's monthly cap; null: the pool alone." })),
          },
          {
            additionalProperties: false,
            description: "The agency the workspace is a client of: its credits come from the agency's pool.",
          },
        ),
      ),
      created_at: Timestamp,
    },
    { additionalProperties: false },
  ),
);

export const DeleteWorkspaceSchema = Type.Object(
  { confirm_name: Type.String({ maxLength: 200 }) },
  { additionalProperties: false },
);

export const DeletedSchema = Type.Object(
  { id: Type.String(), deleted: Type.Literal(true) },
  { additionalProperties: false },
);

export const MemberSchema = component(
  "Member",
  Type.Object(
    { user_id: Type.String(), name: Type.String(), email: Type.String(), role: Role, joined_at: Timestamp },
    { additionalProperties: false },
  ),
);

export const MemberListSchema = Type.Object({ data: Type.Array(MemberSchema) }, { additionalProperties: false });

export const RoleChangeSchema = Type.Object({ role: Type.String({ maxLength: 20 }) }, { additionalProperties: false });

export const RemovedSchema = Type.Object(
  { user_id: Type.String(), removed: Type.Literal(true) },
  { additionalProperties: false },
);

const invitationFields = {
  id: Type.String(),
  email: Type.String(),
  role: Role,
  invited_by: Nullable(Type.String()),
  expires_at: Timestamp,
  created_at: Timestamp,
};

const InvitationSchema = component("Invitation", Type.Object(invitationFields, { additionalProperties: false }));

export const InvitationListSchema = Type.Object(
  { data: Type.Array(InvitationSchema) },
  { additionalProperties: false },
);

export const InviteSchema = Type.Object(
  { email: Email, role: Type.String({ maxLength: 20 }) },
  { additionalProperties: false },
);

export const CreatedInvitationSchema = component(
  "CreatedInvitation",
  Type.Object({ ...invitationFields, link: Type.String(), emailed: Type.Boolean() }, { additionalProperties: false }),
);

export const RevokedInvitationSchema = Type.Object(
  { id: Type.String(), revoked: Type.Literal(true) },
  { additionalProperties: false },
);

export const InvitationPreviewSchema = component(
  "InvitationPreview",
  Type.Object(
    {
      workspace_id: Type.String(),
      workspace_name: Type.String(),
      email: Type.String(),
      role: Role,
      invited_by: Nullable(Type.String()),
      expires_at: Timestamp,
      account_exists: Type.Boolean(),
    },
    { additionalProperties: false },
  ),
);

export const AcceptedSchema = component(
  "AcceptedInvitation",
  Type.Object({ workspace_id: Type.String(), role: Role }, { additionalProperties: false }),
);

export const WorkspaceParams = Type.Object(
  { workspace: Type.String({ maxLength: 100 }) },
  { additionalProperties: false },
);

export const MemberParams = Type.Object(
  { workspace: Type.String({ maxLength: 100 }), user_id: Type.String({ maxLength: 100 }) },
  { additionalProperties: false },
);

export const WorkspaceItemParams = Type.Object(
  { workspace: Type.String({ maxLength: 100 }), id: Type.String({ maxLength: 100 }) },
  { additionalProperties: false },
);

export const TokenParams = Type.Object({ token: Type.String({ maxLength: 100 }) }, { additionalProperties: false });
