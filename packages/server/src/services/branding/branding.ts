import type { Updateable } from "kysely";
import type { Static } from "typebox";
import type { Db } from "../../db/database.ts";
import type { WorkspaceBrandingTable } from "../../db/tables.ts";
import { type ErrorDetail, validationError } from "../../errors/api-error.ts";
import type { ServiceContext } from "../context.ts";
import { isLogo, type LogoMime, logoDataUrl, parseLogo } from "./logo.ts";
import type { BrandingSettingsSchema, UpdateBrandingSchema } from "./schemas.ts";
import { type Branding, DEFAULT_BRANDING } from "./types.ts";

export type BrandingSettings = Static<typeof BrandingSettingsSchema>;
export type BrandingChange = Static<typeof UpdateBrandingSchema>;

const NAME_MAX = 80;
const COLOR = /^#[0-9a-f]{6}$/i;

/** The workspace's row and its branding's, if it set any; undefined for no such workspace. */
function readRow(db: Db, workspaceId: string) {
  return db
    .selectFrom("workspaces as w")
    .leftJoin("workspace_branding as b", "b.workspace_id", "w.id")
    .select([
      "w.name as workspace_name",
      "b.name",
      "b.logo",
      "b.logo_mime",
      "b.primary_color",
      "b.accent_color",
      "b.show_sightline",
      "b.updated_at",
    ])
    .where("w.id", "=", workspaceId)
    .executeTakeFirst();
}

type Row = NonNullable<Awaited<ReturnType<typeof readRow>>>;

function settingsOf(row: Row): BrandingSettings {
  const logo =
    row.logo === null || row.logo_mime === null
      ? null
      : logoDataUrl({ mime: row.logo_mime as LogoMime, base64: row.logo });
  return {
    name: row.name ?? row.workspace_name,
    logo,
    primary: row.primary_color ?? DEFAULT_BRANDING.primary,
    accent: row.accent_color ?? DEFAULT_BRANDING.accent,
    // A workspace that set nothing shows it; the left join gives null then.
    show_sightline: row.show_sightline ?? true,
    workspace_name: row.workspace_name,
    custom_name: row.name !== null,
    updated_at: row.updated_at,
  };
}

function brandingFrom(settings: BrandingSettings): Branding {
  const { name, logo, primary, accent, show_sightline } = settings;
  return { name, logo, primary, accent, show_sightline };
}

/**
 * How the workspace presents what it sends: its own name unless it set one, the default colours
 * unless it set its own, "Sightline" shown unless it asked otherwise. A workspace that does not
 * exist (deleted since) gets the defaults.
 */
export async function brandingOf(deps: { db: Db }, workspaceId: string): Promise<Branding> {
  const row = await readRow(deps.db, workspaceId);
  return row === undefined ? { ...DEFAULT_BRANDING } : brandingFrom(settingsOf(row));
}

/**
 * The branding of the workspace a report belongs to, for a page that found the report by a
 * shared link's token rather than in a workspace's context.
 */
export async function brandingOfReport(deps: { db: Db }, reportId: string): Promise<Branding> {
  const report = await deps.db
    .selectFrom("reports")
    .select("workspace_id")
    .where("id", "=", reportId)
    .executeTakeFirst();
  return report === undefined ? { ...DEFAULT_BRANDING } : brandingOf(deps, report.workspace_id);
}

/** Settings → Branding as every member sees it. */
export async function getBrandingSettings(ctx: ServiceContext): Promise<BrandingSettings> {
  const row = await readRow(ctx.db, ctx.workspace.id);
  if (row === undefined) throw new Error(`workspace ${ctx.workspace.id} has no row`);
  return settingsOf(row);
}

/** The columns a change sets, or the problems with it (all of them, by field). */
function columnsOf(input: BrandingChange): { set: Updateable<WorkspaceBrandingTable>; problems: ErrorDetail[] } {
  const set: Updateable<WorkspaceBrandingTable> = {};
  const problems: ErrorDetail[] = [];
  if (input.name !== undefined) {
    const name = input.name === null ? null : input.name.trim();
    if (name !== null && (name === "" || [...name].length > NAME_MAX)) {
      problems.push({ field: "name", issue: `must be 1 to ${NAME_MAX} characters` });
    } else set.name = name;
  }
  if (input.logo !== undefined) {
    const logo = input.logo === null ? null : parseLogo(input.logo, "logo");
    if (logo === null) {
      set.logo = null;
      set.logo_mime = null;
    } else if (isLogo(logo)) {
      set.logo = logo.base64;
      set.logo_mime = logo.mime;
    } else problems.push(logo);
  }
  for (const [field, column] of [
    ["primary", "primary_color"],
    ["accent", "accent_color"],
  ] as const) {
    const value = input[field];
    if (value === undefined) continue;
    if (value !== null && !COLOR.test(value)) {
      problems.push({ field, issue: "must be a colour as #rrggbb, such as #2456d6" });
    } else set[column] = value === null ? null : value.toLowerCase();
  }
  if (input.show_sightline !== undefined) {
    if (typeof input.show_sightline !== "boolean")
      problems.push({ field: "show_sightline", issue: "must be a boolean" });
    else set.show_sightline = input.show_sightline;
  }
  return { set, problems };
}

/**
 * Changes what is given and keeps the rest: `null` goes back to the default (the workspace's name,
 * no logo, the default colour). Any problem refuses the whole change, which then changes nothing.
 */
export async function updateBranding(ctx: ServiceContext, input: BrandingChange): Promise<BrandingSettings> {
  const { set, problems } = columnsOf(input);
  if (problems.length > 0) throw validationError(problems);
  const values = {
    ...set,
    updated_at: ctx.clock.now().toISOString(),
    updated_by: ctx.actor.type === "user" ? ctx.actor.id : null,
  };
  await ctx.db
    .insertInto("workspace_branding")
    .values({ workspace_id: ctx.workspace.id, show_sightline: true, ...values })
    // Two first saves at once: the second updates what the first inserted.
    .onConflict((oc) => oc.column("workspace_id").doUpdateSet(values))
    .execute();
  return getBrandingSettings(ctx);
}
