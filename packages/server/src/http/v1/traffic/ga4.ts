import { connectGa4, disconnectGa4, getGa4, syncGa4 } from "../../../services/traffic/ga4.ts";
import {
  Ga4ConnectBody,
  Ga4ConnectionSchema,
  Ga4DeletedSchema,
  Ga4SyncBody,
  Ga4SyncSchema,
} from "../../../services/traffic/ga4-schemas.ts";
import { defineRoute } from "../../route.ts";
import { IdParams } from "../../schema.ts";

// Connecting is a POST that creates or replaces the brand's one connection: the route table has
// no PUT (http/route.ts), and a second connect replaces the first, as a PUT would.

export const connectTrafficGa4Route = defineRoute({
  operationId: "connectProjectTrafficGa4",
  method: "POST",
  path: "/projects/:id/traffic/ga4",
  tag: "Traffic",
  summary: "Connect a brand's GA4 property",
  description:
    "Connects the brand's Google Analytics 4 property as a second source of AI referrals, for brands without raw logs, or replaces its connection: `property_id` and `service_account_key`, the JSON key file of a Google Cloud service account that is a Viewer of the property. The key is stored encrypted and never answered back; its `client_email` is. Google is not asked here: sync to check the connection. The worker syncs every connection daily.",
  scope: "projects",
  extension: true,
  params: IdParams,
  body: Ga4ConnectBody,
  success: { status: 200, description: "The connection, without its key.", schema: Ga4ConnectionSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, body }) => connectGa4(ctx, params.id, body),
});

export const getTrafficGa4Route = defineRoute({
  operationId: "getProjectTrafficGa4",
  method: "GET",
  path: "/projects/:id/traffic/ga4",
  tag: "Traffic",
  summary: "A brand's GA4 connection",
  description:
    "The brand's GA4 property, the service account's e-mail (never its key), when it was last synced and why the last sync failed, if it did.",
  scope: "projects",
  extension: true,
  params: IdParams,
  success: { status: 200, description: "The connection, without its key.", schema: Ga4ConnectionSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => getGa4(ctx, params.id),
});

export const disconnectTrafficGa4Route = defineRoute({
  operationId: "disconnectProjectTrafficGa4",
  method: "DELETE",
  path: "/projects/:id/traffic/ga4",
  tag: "Traffic",
  summary: "Disconnect a brand's GA4 property",
  description:
    "Deletes the connection and its key. The visits GA4 already counted are kept, as imported logs' are, until traffic's retention or the brand's purge removes them.",
  scope: "projects",
  extension: true,
  params: IdParams,
  success: { status: 200, description: "What was disconnected.", schema: Ga4DeletedSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => disconnectGa4(ctx, params.id),
});

export const syncTrafficGa4Route = defineRoute({
  operationId: "syncProjectTrafficGa4",
  method: "POST",
  path: "/projects/:id/traffic/ga4/sync",
  tag: "Traffic",
  summary: "Sync a brand's GA4 referrals now",
  description:
    "Reads the last `days` days (30 by default, at most 90, today included) of the property's sessions per day, source and landing page, keeps those an AI engine referred (by source host or utm_source), and replaces what earlier syncs counted for those days, so syncing again never counts twice. Google refusing the key or the property is VALIDATION_ERROR on `service_account_key` or `property_id`; Google failing is ENGINE_FAILURE (retry).",
  scope: "projects",
  extension: true,
  params: IdParams,
  body: Ga4SyncBody,
  bodyOptional: true,
  success: { status: 200, description: "What the sync counted.", schema: Ga4SyncSchema },
  errors: ["NOT_FOUND", "ENGINE_FAILURE"],
  handler: ({ ctx, params, body }) => syncGa4(ctx, params.id, body),
});
