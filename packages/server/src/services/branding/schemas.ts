import Type from "typebox";
import { component, Nullable, Patterned, Timestamp } from "../../lib/schema.ts";
import { LOGO_MAX_BYTES } from "./logo.ts";

/**
 * Settings → Branding (dashboard only, docs/dashboard-api.md): the name, logo and colours a
 * workspace's reports, shared links and e-mails carry, and whether "Sightline" appears on them.
 */

const Color = Patterned("^#[0-9A-Fa-f]{6}$", "must be a colour as #rrggbb, such as #2456d6");

export const BrandingSettingsSchema = component(
  "BrandingSettings",
  Type.Object(
    {
      name: Type.String({ description: "The name reports, shared links and e-mails are signed with." }),
      logo: Nullable(Type.String({ description: "The logo as a `data:image/png;base64,…` URL (or JPEG)." })),
      primary: Type.String({ description: "Headings and the brand's own figures: `#rrggbb`." }),
      accent: Type.String({ description: "Highlights and links: `#rrggbb`." }),
      show_sightline: Type.Boolean({ description: 'Whether "Made with Sightline" appears on what is sent.' }),
      workspace_name: Type.String({ description: "What `name` is when the workspace sets none." }),
      custom_name: Type.Boolean({ description: "Whether `name` was set, rather than the workspace's name." }),
      agency: Nullable(
        Type.String({
          description:
            "The agency the workspace belongs to: what the workspace does not set is the agency's (docs/agencies.md).",
        }),
      ),
      updated_at: Nullable(Timestamp),
    },
    { additionalProperties: false },
  ),
);

export const UpdateBrandingSchema = Type.Object(
  {
    name: Type.Optional(
      Nullable(Type.String({ minLength: 1, maxLength: 80, description: "1 to 80 characters; null: the workspace's." })),
    ),
    logo: Type.Optional(
      Nullable(
        Type.String({
          // Up to half a megabyte is read, to say by how much a logo is too large; longer is refused unread.
          maxLength: 700_000,
          description: `A PNG or JPEG of at most ${LOGO_MAX_BYTES / 1000} kB, as a data URL or base64; null removes it.`,
        }),
      ),
    ),
    primary: Type.Optional(Nullable(Color)),
    accent: Type.Optional(Nullable(Color)),
    show_sightline: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
