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

/**
 * The workspace's row, its branding's if it set any, and its agency's branding if it belongs to
 * an agency; undefined for no such workspace.
 */
function readRow(db: Db, workspaceId: string) {
  return db
    .selectFrom("workspaces as w")
    .leftJoin("workspace_branding as b", "b.workspace_id", "w.id")
    .leftJoin("agencies as a", "a.id", "w.agency_id")
    .leftJoin("agency_branding as ab", "ab.agency_id", "w.agency_id")
    .select([
      "w.name as workspace_name",
      "a.name as agency",
      "b.name",
      "b.logo",
      "b.logo_mime",
      "b.primary_color",
      "b.accent_color",
      "b.show_sightline",
      "b.updated_at",
      "ab.name as agency_brand_name",
      "ab.logo as agency_logo",
      "ab.logo_mime as agency_logo_mime",
      "ab.primary_color as agency_primary",
      "ab.accent_color as agency_accent",
      "ab.show_sightline as agency_show_sightline",
    ])
    .where("w.id", "=", workspaceId)
    .executeTakeFirst();
}

type Row = NonNullable<Awaited<ReturnType<typeof readRow>>>;

/** The settings' columns, whether the workspace's or its agency's. */
interface Columns {
  name: string | null;
  logo: string | null;
  logo_mime: string | null;
  primary_color: string | null;
  accent_color: string | null;
  show_sightline: boolean | null;
  updated_at: string | null;
}

function settingsFrom(
  own: Columns,
  fallback: Columns | null,
  ownerName: string,
  agency: string | null,
): BrandingSettings {
  const pick = <K extends keyof Columns>(key: K): Columns[K] => own[key] ?? fallback?.[key] ?? null;
  // The logo comes with its media type, from the same row.
  const logoRow = own.logo !== null ? own : fallback?.logo != null ? fallback : null;
  const logo =
    logoRow === null || logoRow.logo === null || logoRow.logo_mime === null
      ? null
      : logoDataUrl({ mime: logoRow.logo_mime as LogoMime, base64: logoRow.logo });
  return {
    name: pick("name") ?? ownerName,
    logo,
    primary: pick("primary_color") ?? DEFAULT_BRANDING.primary,
    accent: pick("accent_color") ?? DEFAULT_BRANDING.accent,
    // The agency decides, for all its clients, whether Sightline shows; else the workspace; shown
    // when nothing was set (the left join gives null then).
    show_sightline: fallback?.show_sightline ?? own.show_sightline ?? true,
    workspace_name: ownerName,
    custom_name: pick("name") !== null,
    agency,
    updated_at: own.updated_at ?? fallback?.updated_at ?? null,
  };
}

function settingsOf(row: Row): BrandingSettings {
  const own: Columns = {
    name: row.name,
    logo: row.logo,
    logo_mime: row.logo_mime,
    primary_color: row.primary_color,
    accent_color: row.accent_color,
    show_sightline: row.show_sightline === null ? null : Boolean(row.show_sightline),
    updated_at: row.updated_at,
  };
  const agency: Columns | null =
    row.agency === null
      ? null
      : {
          name: row.agency_brand_name ?? row.agency,
          logo: row.agency_logo,
          logo_mime: row.agency_logo_mime,
          primary_color: row.agency_primary,
          accent_color: row.agency_accent,
          show_sightline: row.agency_show_sightline === null ? null : Boolean(row.agency_show_sightline),
          updated_at: null,
        };
  return settingsFrom(own, agency, row.workspace_name, row.agency);
}

function brandingFrom(settings: BrandingSettings): Branding {
  const { name, logo, primary, accent, show_sightline } = settings;
  return { name, logo, primary, accent, show_sightline };
}

/**
 * How the workspace presents what it sends: its own name unless it set one, the default colours
 * unless it set its own, "Sightline" shown unless it asked otherwise. A client of an agency takes
 * what it did not set from the agency's branding (the agency's name before its own). A workspace
 * that does not exist (deleted since) gets the defaults.
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

async function agencyRow(db: Db, agencyId: string) {
  return db
    .selectFrom("agencies as a")
    .leftJoin("agency_branding as b", "b.agency_id", "a.id")
    .select([
      "a.name as agency_name",
      "b.name",
      "b.logo",
      "b.logo_mime",
      "b.primary_color",
      "b.accent_color",
      "b.show_sightline",
      "b.updated_at",
    ])
    .where("a.id", "=", agencyId)
    .executeTakeFirstOrThrow();
}

/** The agency's branding, set once for every client: its settings as its staff see them. */
export async function agencyBrandingSettings(deps: { db: Db }, agencyId: string): Promise<BrandingSettings> {
  const row = await agencyRow(deps.db, agencyId);
  return settingsFrom(
    { ...row, show_sightline: row.show_sightline === null ? null : Boolean(row.show_sightline) },
    null,
    row.agency_name,
    row.agency_name,
  );
}

/** The agency's branding as what it sends shows it (the custom host's pages). */
export async function agencyBranding(deps: { db: Db }, agencyId: string): Promise<Branding> {
  return brandingFrom(await agencyBrandingSettings(deps, agencyId));
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

/** The agency's branding changed as a workspace's is (`updateBranding`), for all its clients. */
export async function updateAgencyBranding(
  deps: Pick<ServiceContext, "db" | "clock">,
  agencyId: string,
  userId: string,
  input: BrandingChange,
): Promise<BrandingSettings> {
  const { set, problems } = columnsOf(input);
  if (problems.length > 0) throw validationError(problems);
  const values = { ...set, updated_at: deps.clock.now().toISOString(), updated_by: userId };
  await deps.db
    .insertInto("agency_branding")
    .values({ agency_id: agencyId, show_sightline: true, ...values })
    .onConflict((oc) => oc.column("agency_id").doUpdateSet(values))
    .execute();
  return agencyBrandingSettings(deps, agencyId);
}
