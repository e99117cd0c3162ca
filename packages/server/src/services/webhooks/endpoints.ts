import type { Selectable } from "kysely";
import type { WebhookEndpointsTable } from "../../db/tables.ts";

type EndpointRow = Selectable<WebhookEndpointsTable>;

import { notFound, validationError } from "../../errors/api-error.ts";
import { newId } from "../../lib/ids.ts";
import { toJson } from "../../lib/json.ts";
import { inTransaction, type ServiceContext } from "../context.ts";
import type { EventType } from "../events/types.ts";
import { fetchPage, type Page, type PageParams } from "../pagination.ts";
import { endpointColumns } from "./columns.ts";
import { generateWebhookSecret } from "./secrets.ts";
import { checkTargetUrl } from "./target.ts";
import { MAX_ENDPOINTS_PER_WORKSPACE, type WebhookEndpoint, type WebhookEndpointWithSecret } from "./types.ts";

export interface EndpointInput {
  url: string;
  events: EventType[];
  description?: string | null;
  active?: boolean;
}

export interface EndpointPatch {
  url?: string;
  events?: EventType[];
  description?: string | null;
  active?: boolean;
  rotate_secret?: boolean;
}

function rowToEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    object: "webhook_endpoint",
    url: row.url,
    description: row.description,
    events: endpointColumns.events.read(row.events),
    active: row.active,
    disabled_reason: row.disabled_reason,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function uniqueEvents(events: EventType[]): EventType[] {
  return [...new Set(events)];
}

function cleanDescription(description: string | null | undefined): string | null {
  const text = description?.trim() ?? "";
  return text === "" ? null : text;
}

async function findRow(ctx: ServiceContext, id: string): Promise<EndpointRow> {
  const row = await ctx.db
    .selectFrom("webhook_endpoints")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "=", id)
    .executeTakeFirst();
  if (row === undefined) throw notFound("webhook subscription", id);
  return row;
}

/** Subscribes a URL; the secret is generated here and returned by this call only. */
export async function createEndpoint(ctx: ServiceContext, input: EndpointInput): Promise<WebhookEndpointWithSecret> {
  const url = await checkTargetUrl(input.url, ctx.webhookTargets);
  const secret = generateWebhookSecret();
  const now = ctx.clock.now().toISOString();
  const row = {
    id: newId("whk"),
    workspace_id: ctx.workspace.id,
    url,
    description: cleanDescription(input.description),
    events: toJson(uniqueEvents(input.events)),
    active: input.active !== false,
    disabled_reason: null,
    secret_ciphertext: ctx.secrets.encrypt(secret),
    created_at: now,
    updated_at: now,
  };
  return inTransaction(ctx, async (tx) => {
    const count = await tx.db
      .selectFrom("webhook_endpoints")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("workspace_id", "=", tx.workspace.id)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_ENDPOINTS_PER_WORKSPACE) {
      throw validationError([
        {
          issue: `a workspace can have at most ${MAX_ENDPOINTS_PER_WORKSPACE} webhook subscriptions; delete one first`,
        },
      ]);
    }
    await tx.db.insertInto("webhook_endpoints").values(row).execute();
    return { ...rowToEndpoint(row), secret };
  });
}

export function listEndpoints(ctx: ServiceContext, params: PageParams): Promise<Page<WebhookEndpoint>> {
  const query = ctx.db.selectFrom("webhook_endpoints").selectAll().where("workspace_id", "=", ctx.workspace.id);
  return fetchPage(query, params, rowToEndpoint);
}

export async function getEndpoint(ctx: ServiceContext, id: string): Promise<WebhookEndpoint> {
  return rowToEndpoint(await findRow(ctx, id));
}

/**
 * Changes a subscription. `rotate_secret: true` replaces the secret at once and returns the new
 * one (deliveries from then on are signed with it). Setting `active: true` again clears the reason
 * Sightline had disabled it for.
 */
export async function updateEndpoint(
  ctx: ServiceContext,
  id: string,
  patch: EndpointPatch,
): Promise<WebhookEndpoint | WebhookEndpointWithSecret> {
  const url = patch.url === undefined ? undefined : await checkTargetUrl(patch.url, ctx.webhookTargets);
  return inTransaction(ctx, async (tx) => {
    const row = await findRow(tx, id);
    const now = tx.clock.now().toISOString();
    const secret = patch.rotate_secret === true ? generateWebhookSecret() : undefined;
    const next: EndpointRow = {
      ...row,
      url: url ?? row.url,
      events: patch.events === undefined ? row.events : toJson(uniqueEvents(patch.events)),
      description: patch.description === undefined ? row.description : cleanDescription(patch.description),
      active: patch.active ?? row.active,
      disabled_reason: patch.active === true ? null : row.disabled_reason,
      secret_ciphertext: secret === undefined ? row.secret_ciphertext : tx.secrets.encrypt(secret),
      updated_at: now,
    };
    await tx.db
      .updateTable("webhook_endpoints")
      .set({
        url: next.url,
        events: next.events,
        description: next.description,
        active: next.active,
        disabled_reason: next.disabled_reason,
        secret_ciphertext: next.secret_ciphertext,
        updated_at: now,
      })
      .where("workspace_id", "=", tx.workspace.id)
      .where("id", "=", id)
      .execute();
    const endpoint = rowToEndpoint(next);
    return secret === undefined ? endpoint : { ...endpoint, secret };
  });
}

/** Removes a subscription; its pending deliveries are canceled. */
export async function deleteEndpoint(
  ctx: ServiceContext,
  id: string,
): Promise<{ id: string; object: "webhook_endpoint"; deleted: true }> {
  return inTransaction(ctx, async (tx) => {
    await findRow(tx, id);
    const now = tx.clock.now().toISOString();
    await tx.db
      .updateTable("webhook_deliveries")
      .set({ status: "canceled", next_attempt_at: null, updated_at: now })
      .where("workspace_id", "=", tx.workspace.id)
      .where("endpoint_id", "=", id)
      .where("status", "=", "pending")
      .execute();
    await tx.db
      .deleteFrom("webhook_endpoints")
      .where("workspace_id", "=", tx.workspace.id)
      .where("id", "=", id)
      .execute();
    return { id, object: "webhook_endpoint", deleted: true };
  });
}
