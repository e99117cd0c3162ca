import { createPrivateKey } from "node:crypto";
import type { Selectable } from "kysely";
import type { Static } from "typebox";
import type { TrafficGa4ConnectionsTable } from "../../db/tables.ts";
import { ApiError, validationError } from "../../errors/api-error.ts";
import { inTransaction, type ServiceContext } from "../context.ts";
import type { EngineName } from "../engines/catalog.ts";
import { getProject } from "../projects/projects.ts";
import { checkInput } from "../validate.ts";
import {
  accessToken,
  GA4_DATA_API_URL,
  GOOGLE_TOKEN_URI,
  type GoogleFailure,
  runReport,
  type ServiceAccountKey,
} from "./ga4-google.ts";
import { Ga4ConnectBody, type Ga4ConnectionSchema, type Ga4DeletedSchema, type Ga4SyncSchema } from "./ga4-schemas.ts";
import { GA4_HOST } from "./referral-sources.ts";
import { referringEngine } from "./referrers.ts";

/**
 * A brand's GA4 property as a second source of AI referrals (issue 26), for brands without raw
 * logs. One connection per brand: the property and a service account's key, the key encrypted at
 * rest like every secret (SecretBox) and never answered back; its e-mail is its hint. A sync reads
 * sessions per day, source and landing page, maps each source to an engine as a referrer or a
 * utm_source is (referrers.ts), and replaces GA4's counts of the days it read (GA4_HOST rows), so
 * syncing again never counts twice and never touches what logs counted.
 */
export type Ga4Connection = Static<typeof Ga4ConnectionSchema>;
export type Ga4Sync = Static<typeof Ga4SyncSchema>;
type Ga4ConnectInput = Static<typeof Ga4ConnectBody>;
type ConnectionRow = Selectable<TrafficGa4ConnectionsTable>;

export interface Ga4Options {
  /** The Data API's base URL: Google's unless a caller (a test's fake) says otherwise. Kept with the connection. */
  dataApiUrl?: string;
}

/** Days a sync reads unless told. */
export const DEFAULT_SYNC_DAYS = 30;
/** Rows written per statement. */
const CHUNK = 400;
/** Pages longer than this are cut, as log lines' are. */
const MAX_PATH = 512;
const DAY_MS = 86_400_000;

const noConnection = (projectId: string) =>
  new ApiError("NOT_FOUND", `The brand '${projectId}' has no GA4 connection; connect one with PUT first.`);

function view(row: ConnectionRow): Ga4Connection {
  return {
    object: "traffic_ga4_connection",
    project_id: row.project_id,
    property_id: row.property_id,
    client_email: row.client_email,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_synced_at: row.last_synced_at,
    last_error: row.last_error,
  };
}

async function rowOf(ctx: ServiceContext, projectId: string): Promise<ConnectionRow | undefined> {
  return ctx.db
    .selectFrom("traffic_ga4_connections")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .executeTakeFirst();
}

/** The key as it is kept: what signing a token needs, checked. */
async function checkKey(ctx: ServiceContext, key: Ga4ConnectInput["service_account_key"]): Promise<ServiceAccountKey> {
  try {
    const parsed = createPrivateKey(key.private_key);
    if (parsed.asymmetricKeyType !== "rsa") throw new Error("not RSA");
  } catch {
    throw validationError([
      { field: "service_account_key.private_key", issue: "must be the key file's RSA private key, in PEM" },
    ]);
  }
  const tokenUri = await ctx.engineOutbound.checkUrl(
    key.token_uri ?? GOOGLE_TOKEN_URI,
    "service_account_key.token_uri",
  );
  return {
    client_email: key.client_email,
    private_key: key.private_key,
    private_key_id: key.private_key_id ?? null,
    token_uri: tokenUri,
  };
}

/**
 * Connects the brand's GA4 property, or replaces its connection (property, key or both). Google
 * is not asked here: the first sync says whether it lets the account read the property.
 */
export async function connectGa4(
  ctx: ServiceContext,
  projectId: string,
  input: Ga4ConnectInput,
  options: Ga4Options = {},
): Promise<Ga4Connection> {
  await getProject(ctx, projectId);
  const body = checkInput(Ga4ConnectBody, input);
  const key = await checkKey(ctx, body.service_account_key);
  const now = ctx.clock.now().toISOString();
  const values = {
    property_id: body.property_id.replace(/^properties\//, ""),
    client_email: key.client_email,
    credentials: ctx.secrets.encrypt(JSON.stringify(key)),
    api_url: options.dataApiUrl ?? GA4_DATA_API_URL,
    updated_at: now,
    last_error: null,
    // Due at once: the worker's first sync reads the last DEFAULT_SYNC_DAYS days.
    next_sync_at: now,
  };
  await ctx.db
    .insertInto("traffic_ga4_connections")
    .values({
      ...values,
      workspace_id: ctx.workspace.id,
      project_id: projectId,
      created_at: now,
      last_synced_at: null,
    })
    .onConflict((oc) => oc.column("project_id").doUpdateSet(values))
    .execute();
  const row = await rowOf(ctx, projectId);
  if (row === undefined) throw noConnection(projectId);
  return view(row);
}

export async function getGa4(ctx: ServiceContext, projectId: string): Promise<Ga4Connection> {
  await getProject(ctx, projectId);
  const row = await rowOf(ctx, projectId);
  if (row === undefined) throw noConnection(projectId);
  return view(row);
}

/**
 * Disconnects: the key is deleted at once. The visits GA4 counted are kept, as imported logs'
 * are: they are the brand's history, go with it when it is purged and age out with traffic's
 * retention; connecting again and syncing replaces the days it reads.
 */
export async function disconnectGa4(ctx: ServiceContext, projectId: string): Promise<Static<typeof Ga4DeletedSchema>> {
  await getProject(ctx, projectId);
  const deleted = await ctx.db
    .deleteFrom("traffic_ga4_connections")
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .executeTakeFirst();
  if (deleted.numDeletedRows === 0n) throw noConnection(projectId);
  return { object: "traffic_ga4_connection", project_id: projectId, deleted: true };
}

/** The engine a GA4 session source points at: a host (`chatgpt.com`) or a utm_source (`perplexity`). */
export function engineOfSource(source: string): EngineName | null {
  const value = source.trim();
  if (value === "" || value.startsWith("(")) return null; // (direct), (not set)
  return referringEngine(value, null) ?? referringEngine(null, `utm_source=${encodeURIComponent(value)}`);
}

function landingPath(value: string): string {
  const path = (value.split(/[?#]/)[0] ?? "").slice(0, MAX_PATH);
  return path === "" ? "/" : path;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A failure of Google's as the API's error: the customer's to fix (VALIDATION_ERROR on the field), or Google's (retry). */
function ga4Error(failure: GoogleFailure): ApiError {
  if (failure.field !== null)
    return validationError([{ field: failure.field, issue: failure.message }], failure.message);
  return new ApiError("ENGINE_FAILURE", `${failure.message}; try again later.`);
}

async function recordFailure(ctx: ServiceContext, projectId: string, message: string): Promise<void> {
  await ctx.db
    .updateTable("traffic_ga4_connections")
    .set({ last_error: message.slice(0, 1_000) })
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .execute();
}

/** Reads the connection's last `days` days (UTC, today included) and replaces GA4's counts of them. */
export async function syncConnection(ctx: ServiceContext, row: ConnectionRow, days: number): Promise<Ga4Sync> {
  const now = ctx.clock.now();
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const from = isoDay(today - (days - 1) * DAY_MS);
  const last = isoDay(today);
  const to = isoDay(today + DAY_MS);
  let key: ServiceAccountKey;
  try {
    key = JSON.parse(ctx.secrets.decrypt(row.credentials)) as ServiceAccountKey;
  } catch {
    const message = "the service account key cannot be decrypted with this server's secret keys; connect it again";
    await recordFailure(ctx, row.project_id, message);
    throw validationError([{ field: "service_account_key", issue: message }], message);
  }
  const fetcher = ctx.engineOutbound.fetch();
  const token = await accessToken(fetcher, key, now);
  const report = token.ok
    ? await runReport(fetcher, {
        apiUrl: row.api_url,
        propertyId: row.property_id,
        token: token.value,
        clientEmail: row.client_email,
        startDate: from,
        endDate: last,
      })
    : token;
  if (!report.ok) {
    await recordFailure(ctx, row.project_id, report.failure.message);
    throw ga4Error(report.failure);
  }

  const counts = new Map<string, { day: string; path: string; engine: EngineName; visits: number }>();
  const engines = new Map<string, number>();
  let ignored = 0;
  for (const found of report.value) {
    const day = `${found.date.slice(0, 4)}-${found.date.slice(4, 6)}-${found.date.slice(6, 8)}`;
    if (day < from || day > last || found.sessions === 0) continue;
    const engine = engineOfSource(found.source);
    if (engine === null) {
      ignored += found.sessions;
      continue;
    }
    const path = landingPath(found.landingPage);
    const k = `${day}\u0000${path}\u0000${engine}`;
    const counted = counts.get(k);
    if (counted === undefined) counts.set(k, { day, path, engine, visits: found.sessions });
    else counted.visits += found.sessions;
    engines.set(engine, (engines.get(engine) ?? 0) + found.sessions);
  }
  const syncedAt = now.toISOString();
  await inTransaction(ctx, async (tx) => {
    // The days read are replaced whole: a day GA4 now says less about loses what it said before.
    await tx.db
      .deleteFrom("traffic_referrals")
      .where("workspace_id", "=", tx.workspace.id)
      .where("project_id", "=", row.project_id)
      .where("host", "=", GA4_HOST)
      .where("day", ">=", from)
      .where("day", "<", to)
      .execute();
    const owner = { workspace_id: tx.workspace.id, project_id: row.project_id, host: GA4_HOST };
    const values = [...counts.values()].map((value) => ({ ...owner, ...value }));
    for (let i = 0; i < values.length; i += CHUNK) {
      await tx.db
        .insertInto("traffic_referrals")
        .values(values.slice(i, i + CHUNK))
        // Two syncs at once: the one that writes second sets the same counts, never adds to them.
        .onConflict((oc) =>
          oc
            .columns(["project_id", "day", "host", "path", "engine"])
            .doUpdateSet((eb) => ({ visits: eb.ref("excluded.visits") })),
        )
        .execute();
    }
    await tx.db
      .updateTable("traffic_ga4_connections")
      .set({ last_synced_at: syncedAt, last_error: null })
      .where("workspace_id", "=", tx.workspace.id)
      .where("project_id", "=", row.project_id)
      .execute();
  });
  return {
    object: "traffic_ga4_sync",
    project_id: row.project_id,
    property_id: row.property_id,
    from,
    to,
    rows: report.value.length,
    referrals: [...engines.values()].reduce((a, b) => a + b, 0),
    ignored,
    engines: [...engines.entries()]
      .map(([engine, visits]) => ({ engine, visits }))
      .sort((a, b) => b.visits - a.visits || a.engine.localeCompare(b.engine)),
    synced_at: syncedAt,
  };
}

/** `POST …/traffic/ga4/sync`: the brand's last `days` days (30 unless said, at most 90). */
export async function syncGa4(ctx: ServiceContext, projectId: string, input: { days?: number }): Promise<Ga4Sync> {
  await getProject(ctx, projectId);
  const days = input.days ?? DEFAULT_SYNC_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > 90) {
    throw validationError([{ field: "days", issue: "must be a whole number of days from 1 to 90" }]);
  }
  const row = await rowOf(ctx, projectId);
  if (row === undefined) throw noConnection(projectId);
  return syncConnection(ctx, row, days);
}
