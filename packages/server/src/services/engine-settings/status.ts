import type { Static } from "typebox";
import type { ServiceContext } from "../context.ts";
import { ENGINE_DESCRIPTORS } from "../engines/catalog.ts";
import type { EngineReach } from "../engines/types.ts";
import { type WorkspaceEngines, workspaceEngines } from "../engines/workspace-engines.ts";
import { planAllowsEngine } from "../plans/catalog.ts";
import type { EngineStatusListSchema, EngineStatusSchema } from "./schemas.ts";

export type EngineStatus = Static<typeof EngineStatusSchema>;
type EngineStatusList = Static<typeof EngineStatusListSchema>;

/** One engine as Settings → Engines and the engine pickers show it, for this workspace. */
export function statusOf(ctx: ServiceContext, engines: WorkspaceEngines, name: string): EngineStatus {
  const descriptor = ENGINE_DESCRIPTORS.find((d) => d.name === name);
  const row = engines.rowOf(name);
  const custom = engines.isCustom(name);
  const source = engines.sourceOf(name);
  const configured = engines.isConfigured(name);
  const inPlan = planAllowsEngine(ctx.workspace.plan, name);
  // The outcome of the last test stands for the key it tested: a new key clears it (connections.ts).
  const failing = configured && row?.status === "failing";
  const status = !configured ? "no_key" : failing ? "failing" : "ready";
  const own = source === "workspace" ? row : undefined;
  const reason = !configured
    ? engines.reasonOf(name)
    : inPlan
      ? null
      : `the ${ctx.workspace.plan.name} plan does not include ${name}`;
  // Engines reached through a SERP or scraping provider have no model to choose (SerpApi, DataForSEO).
  const serverModel =
    descriptor?.credentials === "api_key" && descriptor.modelVariable
      ? ctx.engines.config.vendors[descriptor.name].model
      : null;
  return {
    name,
    title: descriptor?.title ?? row?.title ?? name,
    custom,
    surface: descriptor?.surface ?? "api",
    vendor: descriptor?.vendor ?? (custom ? "OpenAI-compatible API" : null),
    needs_key: descriptor?.credentials !== "none",
    source: descriptor?.credentials === "none" ? "server" : source,
    key_hint: own?.key_hint ?? null,
    model: row?.model ?? null,
    default_model: serverModel,
    base_url: custom ? (row?.base_url ?? null) : null,
    status,
    last_error: status === "failing" ? (row?.last_error ?? null) : null,
    tested_at: row?.tested_at ?? null,
    in_plan: inPlan,
    can_run: configured && inPlan,
    reason,
    reach: reachView(engines.reachOf(name)),
  };
}

/**
 * Every engine this workspace knows, with what it needs to answer: engines that can run first
 * (ready before failing), then those that cannot, each group in the catalog's order. The keys'
 * last characters (`key_hint`) are for those who manage the keys (`keyHints`: admins and owners).
 */
export async function listEngineStatuses(
  ctx: ServiceContext,
  { keyHints }: { keyHints: boolean },
): Promise<EngineStatusList> {
  const engines = await workspaceEngines(ctx);
  const all = engines
    .names()
    .map((name) => statusOf(ctx, engines, name))
    .map((status) => (keyHints ? status : { ...status, key_hint: null }));
  const rank = (s: EngineStatus) => (!s.can_run ? 2 : s.status === "failing" ? 1 : 0);
  const data = all
    .map((status, index) => ({ status, index }))
    .sort((a, b) => rank(a.status) - rank(b.status) || a.index - b.index)
    .map(({ status }) => status);
  return { data, workspace_keys: ctx.engines.workspaceKeys };
}

function reachView(reach: EngineReach | null): EngineStatus["reach"] {
  return reach === null ? null : { persona: reach.persona, country: reach.country, conversation: reach.conversation };
}
