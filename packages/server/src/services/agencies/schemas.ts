import Type from "typebox";
import { component, Nullable, StringEnum, Timestamp } from "../../lib/schema.ts";
import { AGENCY_ROLES } from "../accounts/roles.ts";
import { ProportionSchema } from "../measurement/schemas.ts";

/** The shapes of the agency's dashboard routes (docs/agencies.md); not part of the public API. */

const AgencyRoleSchema = component("AgencyRole", StringEnum(AGENCY_ROLES));
const Id = Type.String({ minLength: 1, maxLength: 100 });
const Name = Type.String({ minLength: 1, maxLength: 100 });
const Cap = Nullable(Type.Integer({ minimum: 0, maximum: 100_000_000 }));

export const AgencyParams = Type.Object({ agency: Id }, { additionalProperties: false });
export const AgencyClientParams = Type.Object({ agency: Id, workspace: Id }, { additionalProperties: false });
export const AgencyStaffParams = Type.Object({ agency: Id, user: Id }, { additionalProperties: false });
export const PitchParams = Type.Object({ agency: Id, pitch: Id }, { additionalProperties: false });

export const AgencySchema = component(
  "Agency",
  Type.Object(
    {
      id: Type.String(),
      name: Type.String(),
      role: AgencyRoleSchema,
      credits: Type.Object(
        {
          allowance: Type.Integer({ description: "The pool every client draws on this billing month." }),
          used: Type.Integer(),
          remaining: Type.Integer(),
          period_start: Type.String(),
          period_end: Type.String({ description: "The day the pool (and every client's cap) renews." }),
        },
        { additionalProperties: false },
      ),
      custom_host: Nullable(Type.String({ description: "The host its dashboard and share links are reached on." })),
      clients: Type.Integer(),
      created_at: Timestamp,
    },
    { additionalProperties: false },
  ),
);

export const AgencyListSchema = Type.Object({ data: Type.Array(AgencySchema) }, { additionalProperties: false });

export const AgencyCreateSchema = Type.Object(
  {
    name: Name,
    /** A workspace on the Agency plan the user owns: it becomes the agency's first client. */
    workspace_id: Id,
  },
  { additionalProperties: false },
);

export const AgencyRenameSchema = Type.Object({ name: Name }, { additionalProperties: false });

export const AgencyClientSchema = component(
  "AgencyClient",
  Type.Object(
    {
      id: Type.String({ description: "The client's workspace." }),
      name: Type.String(),
      brands: Type.Integer(),
      visibility: ProportionSchema,
      visibility_previous: ProportionSchema,
      visibility_change: Nullable(Type.Number({ description: "Points of share, this period minus the one before." })),
      visibility_change_significant: Nullable(Type.Boolean()),
      open_alerts: Type.Integer(),
      credits_used: Type.Integer(),
      credit_cap: Cap,
      last_run_at: Nullable(Timestamp),
      next_run_at: Nullable(Timestamp),
      created_at: Timestamp,
    },
    { additionalProperties: false },
  ),
);

export const AgencyClientListSchema = Type.Object(
  {
    data: Type.Array(AgencyClientSchema),
    from: Timestamp,
    to: Timestamp,
    period_end: Type.String({ description: "When the credits used renew." }),
  },
  { additionalProperties: false },
);

export const ClientCreateSchema = Type.Object(
  { name: Name, credit_cap: Type.Optional(Cap) },
  { additionalProperties: false },
);

export const ClientUpdateSchema = Type.Object(
  { name: Type.Optional(Name), credit_cap: Type.Optional(Cap) },
  { additionalProperties: false },
);

export const AgencyStaffSchema = component(
  "AgencyStaff",
  Type.Object(
    { user_id: Type.String(), name: Type.String(), email: Type.String(), role: AgencyRoleSchema, joined_at: Timestamp },
    { additionalProperties: false },
  ),
);

export const AgencyStaffListSchema = Type.Object(
  { data: Type.Array(AgencyStaffSchema) },
  { additionalProperties: false },
);

export const StaffAddSchema = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 254 }), role: Type.String({ maxLength: 20 }) },
  { additionalProperties: false },
);

export const StaffRoleSchema = Type.Object({ role: Type.String({ maxLength: 20 }) }, { additionalProperties: false });

export const StaffRemovedSchema = Type.Object(
  { user_id: Type.String(), removed: Type.Literal(true) },
  { additionalProperties: false },
);

const PITCH_STATUSES = ["draft", "running", "ready", "failed", "converted"] as const;

export const PitchSchema = component(
  "Pitch",
  Type.Object(
    {
      id: Type.String(),
      website: Type.String(),
      name: Nullable(Type.String({ description: "The prospect's name, once run." })),
      status: StringEnum(PITCH_STATUSES),
      workspace_id: Type.String({ description: "The pitch's own workspace (its brand, answers and report)." }),
      project_id: Nullable(Type.String()),
      analysis_id: Nullable(Type.String()),
      answers: Type.Object(
        { done: Type.Integer(), total: Type.Integer() },
        { additionalProperties: false, description: "The analysis's progress." },
      ),
      report_id: Nullable(Type.String()),
      share_url: Nullable(Type.String({ description: "The branded report's link, opened without a session." })),
      error: Nullable(Type.String()),
      converted_at: Nullable(Timestamp),
      created_at: Timestamp,
    },
    { additionalProperties: false },
  ),
);

export const PitchListSchema = Type.Object({ data: Type.Array(PitchSchema) }, { additionalProperties: false });

export const PitchCreateSchema = Type.Object(
  { website: Type.String({ minLength: 1, maxLength: 2000 }) },
  { additionalProperties: false },
);

export const PitchRunSchema = Type.Object(
  {
    name: Name,
    primary_domain: Type.Optional(
      Type.String({ minLength: 1, maxLength: 253, description: "The prospect's domain; the website's by default." }),
    ),
    prompts: Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { minItems: 1, maxItems: 20 }),
    competitors: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 20 }),
    engines: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 10 })),
  },
  { additionalProperties: false },
);

export const PitchConvertSchema = Type.Object(
  { name: Type.Optional(Name), credit_cap: Type.Optional(Cap) },
  { additionalProperties: false },
);

export const HostSchema = component(
  "Host",
  Type.Object(
    {
      agency: Nullable(Type.String({ description: "The agency whose custom host this request came in on." })),
      name: Nullable(Type.String()),
      logo: Nullable(Type.String()),
      primary: Nullable(Type.String()),
      accent: Nullable(Type.String()),
      show_sightline: Type.Boolean(),
    },
    { additionalProperties: false },
  ),
);
