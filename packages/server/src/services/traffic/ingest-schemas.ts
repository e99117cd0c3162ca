import Type from "typebox";
import { component, Nullable, StringEnum, Timestamp } from "../../lib/schema.ts";
import { LOG_FORMATS } from "./formats/types.ts";

/** A brand's ingest tokens as Settings shows them: never their value, but once at creation. */
const tokenFields = {
  id: Type.String(),
  project_id: Type.String(),
  name: Type.String(),
  start: Type.String({ description: "The token's first characters, to recognise it." }),
  status: StringEnum(["active", "revoked"] as const),
  created_at: Timestamp,
  last_used_at: Nullable(Timestamp),
  revoked_at: Nullable(Timestamp),
};

export const IngestTokenSchema = component("IngestToken", Type.Object(tokenFields, { additionalProperties: false }));

export const IngestTokenListSchema = Type.Object(
  { data: Type.Array(IngestTokenSchema) },
  { additionalProperties: false },
);

export const CreatedIngestTokenSchema = component(
  "CreatedIngestToken",
  Type.Object(
    { ...tokenFields, token: Type.String({ description: "The token itself: shown this once." }) },
    { additionalProperties: false },
  ),
);

export const CreateIngestTokenSchema = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);

export const IngestTokenParams = Type.Object(
  {
    workspace: Type.String({ maxLength: 100 }),
    id: Type.String({ maxLength: 100 }),
  },
  { additionalProperties: false },
);

export const IngestTokenItemParams = Type.Object(
  {
    workspace: Type.String({ maxLength: 100 }),
    id: Type.String({ maxLength: 100 }),
    token_id: Type.String({ maxLength: 100 }),
  },
  { additionalProperties: false },
);

/** What a batch of log lines counted to (`POST /v1/projects/:id/traffic/logs`, the CLI, an upload). */
export const TrafficImportSchema = component(
  "TrafficImport",
  Type.Object(
    {
      object: Type.Literal("traffic_import"),
      id: Type.String({ description: "The batch's id (`tim_…`); a duplicate answers the first import's." }),
      project_id: Type.String(),
      duplicate: Type.Boolean({
        description:
          "The same bytes were imported for this brand before (recognised by their SHA-256): nothing was counted again.",
      }),
      format: StringEnum(LOG_FORMATS, { description: "The format the lines were read in, named or detected." }),
      lines: Type.Integer({ description: "Lines read." }),
      bot_hits: Type.Integer({ description: "Lines that were an AI bot's request to one of the brand's domains." }),
      referrals: Type.Integer({ description: "Lines that were a visit referred by an AI engine." }),
      ignored: Type.Integer({ description: "Every other line: counted, then dropped (nothing of it is kept)." }),
      rejected: Type.Integer({ description: "Lines that could not be read in the format." }),
      reasons: Type.Array(
        Type.Object({ reason: Type.String(), count: Type.Integer() }, { additionalProperties: false }),
        { description: "The first distinct reasons lines were rejected for, with how many each." },
      ),
    },
    { additionalProperties: false },
  ),
);

export const TrafficLogsQuery = Type.Object(
  {
    format: Type.Optional(
      StringEnum(LOG_FORMATS, { description: "The lines' format; detected from the first lines when left out." }),
    ),
  },
  {
    additionalProperties: false,
    // Cloudflare Logpush sets request headers from `header_*` parameters of its destination's
    // address (`header_Authorization=Bearer …`): they may arrive with the push, and mean nothing here.
    patternProperties: { "^header_": Type.String({ maxLength: 4096 }) },
  },
);
