import type { Static } from "typebox";
import { ApiError, notFound, validationError } from "../../errors/api-error.ts";
import type { ServiceContext } from "../context.ts";
import { ENGINE_DESCRIPTORS } from "../engines/catalog.ts";
import { type EngineRow, workspaceEngines } from "../engines/workspace-engines.ts";
import { checkEnginesInPlan } from "../plans/engines.ts";
import { limitPerMinute } from "../rate-limits/per-minute.ts";
import type { CreateEngineSchema, UpdateEngineSchema } from "./schemas.ts";
import { type EngineStatus, statusOf } from "./status.ts";

type UpdateEngine = Static<typeof UpdateEngineSchema>;
type CreateEngine = Static<typeof CreateEngineSchema>;

/** What "Test connection" asks: short, so that it costs next to nothing. */
const TEST_QUESTION = "In one short sentence: which AI assistant are you?";
/** How long a test may take, at most (the engine's own timeout when shorter). */
const TEST_TIMEOUT_MS = 30_000;
/** How much of a test's answer is shown. */
const ANSWER_CHARS = 500;
/** Tests one workspace may run per minute: each one asks a vendor, maybe with the operator's key. */
const ENGINE_TEST_LIMIT = { perWorkspacePerMinute: 10 } as const;

async function checkTestRate(ctx: ServiceContext): Promise<void> {
  await limitPerMinute(ctx.counters, {
    kind: "engine-tests:workspace",
    key: ctx.workspace.id,
    limit: ENGINE_TEST_LIMIT.perWorkspacePerMinute,
    refusal: (seconds) =>
      `Engines are tested at most ${ENGINE_TEST_LIMIT.perWorkspacePerMinute} times a minute per workspace; try again in ${seconds} s.`,
  });
}

/** Workspace keys and endpoints are refused when the operator forbids them. */
function checkAllowed(ctx: ServiceContext): void {
  if (!ctx.engines.workspaceKeys) {
    throw new ApiError(
      "FORBIDDEN",
      "This server does not let workspaces connect engines themselves (SIGHTLINE_WORKSPACE_ENGINE_KEYS=false); ask its operator to set the key.",
    );
  }
}

function hintOf(key: string): string {
  return key.slice(-4);
}

async function rowOf(ctx: ServiceContext, name: string): Promise<EngineRow | undefined> {
  return ctx.db
    .selectFrom("workspace_engines")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("name", "=", name)
    .executeTakeFirst();
}

async function statusNow(ctx: ServiceContext, name: string): Promise<EngineStatus> {
  return statusOf(ctx, await workspaceEngines(ctx), name);
}

/** A built-in engine that takes a key, or a custom engine of this workspace; anything else is not found. */
async function target(ctx: ServiceContext, name: string): Promise<{ custom: boolean; row: EngineRow | undefined }> {
  const descriptor = ENGINE_DESCRIPTORS.find((d) => d.name === name);
  const row = await rowOf(ctx, name);
  if (descriptor === undefined) {
    if (row?.custom) return { custom: true, row };
    throw notFound("engine", name);
  }
  if (descriptor.credentials === "none") {
    throw validationError([{ field: "engine", issue: `${name} is offline and needs no key` }]);
  }
  return { custom: false, row };
}

/**
 * Sets, replaces or removes (`api_key: null`) a workspace's key for an engine, its model (`null`:
 * the server's), and for a custom engine its title and address. A change of key, model or address
 * clears the last test's outcome: it said nothing about the new one.
 */
export async function updateEngine(ctx: ServiceContext, name: string, input: UpdateEngine): Promise<EngineStatus> {
  const { custom, row } = await target(ctx, name);
  // Taking a key or a setting away is always allowed; giving one is not when the operator forbids it.
  const adds = (input.api_key ?? null) !== null || (input.model ?? null) !== null || input.title !== undefined;
  if (adds || input.base_url !== undefined) checkAllowed(ctx);
  if (!custom && (input.title !== undefined || input.base_url !== undefined)) {
    const field = input.title !== undefined ? "title" : "base_url";
    throw validationError([{ field, issue: "only a custom engine has one" }]);
  }
  const descriptor = ENGINE_DESCRIPTORS.find((d) => d.name === name);
  if ((input.model ?? null) !== null && descriptor?.credentials === "api_key" && !descriptor.modelVariable) {
    throw validationError([{ field: "model", issue: `${name} has no model to choose` }]);
  }
  if (input.title !== undefined && input.title.trim() === "") {
    throw validationError([{ field: "title", issue: "must not be blank" }]);
  }
  if (custom && input.model === null) {
    throw validationError([{ field: "model", issue: "a custom engine needs its model" }]);
  }
  // A built-in engine answers with the server's key and model unless the workspace sets its own key:
  // a model of its own without one would be shown and never asked.
  const keyAfter = input.api_key === undefined ? (row?.api_key ?? null) : input.api_key;
  if (!custom && (input.model ?? null) !== null && keyAfter === null) {
    throw validationError([{ field: "model", issue: "a model applies with your own key; add the key first" }]);
  }
  const baseUrl =
    input.base_url === undefined ? undefined : await ctx.engineOutbound.checkUrl(input.base_url, "base_url");
  const now = ctx.clock.now().toISOString();
  const changes = {
    ...(input.api_key === undefined
      ? {}
      : input.api_key === null
        ? // Without the workspace's key, a built-in engine answers with the server's model too.
          { api_key: null, key_hint: null, ...(custom ? {} : { model: null }) }
        : { api_key: ctx.secrets.encrypt(input.api_key), key_hint: hintOf(input.api_key) }),
    ...(input.model === undefined ? {} : { model: input.model }),
    ...(input.title === undefined ? {} : { title: input.title.trim() }),
    ...(baseUrl === undefined ? {} : { base_url: baseUrl }),
  };
  const retest =
    input.api_key !== undefined ||
    (input.model !== undefined && input.model !== (row?.model ?? null)) ||
    (baseUrl !== undefined && baseUrl !== row?.base_url);
  const cleared = retest ? { status: "untested", last_error: null, tested_at: null } : {};
  // Removing what was never set keeps nothing: no row is written.
  const keeps = Object.values(changes).some((value) => value !== null);
  if (row === undefined && keeps) {
    // Two first saves at once: the second updates what the first inserted.
    await ctx.db
      .insertInto("workspace_engines")
      .values({ ...builtInRow(ctx, name, now), ...changes })
      .onConflict((oc) => oc.columns(["workspace_id", "name"]).doUpdateSet({ ...changes, ...cleared, updated_at: now }))
      .execute();
  } else if (row !== undefined) {
    await ctx.db
      .updateTable("workspace_engines")
      .set({ ...changes, ...cleared, updated_at: now })
      .where("workspace_id", "=", ctx.workspace.id)
      .where("name", "=", name)
      .execute();
  }
  return statusNow(ctx, name);
}

/** Adds an OpenAI-compatible engine of the workspace's own (Ollama, vLLM, a proxy), under a name no other engine has. */
export async function createEngine(ctx: ServiceContext, input: CreateEngine): Promise<EngineStatus> {
  checkAllowed(ctx);
  const engines = await workspaceEngines(ctx);
  const taken = () =>
    new ApiError("CONFLICT", `An engine named ${input.name} exists already; choose another name.`, {
      details: [{ field: "name", issue: "is taken by another engine" }],
    });
  if (engines.isKnown(input.name) || (await rowOf(ctx, input.name)) !== undefined) throw taken();
  const baseUrl = await ctx.engineOutbound.checkUrl(input.base_url, "base_url");
  const now = ctx.clock.now().toISOString();
  const key = input.api_key ?? null;
  const inserted = await ctx.db
    .insertInto("workspace_engines")
    .values({
      workspace_id: ctx.workspace.id,
      name: input.name,
      custom: true,
      title: input.title.trim(),
      api_key: key === null ? null : ctx.secrets.encrypt(key),
      key_hint: key === null ? null : hintOf(key),
      model: input.model,
      base_url: baseUrl,
      status: "untested",
      last_error: null,
      tested_at: null,
      created_at: now,
      updated_at: now,
    })
    // Two creations of one name at once: the one that comes second inserts nothing, and is told so.
    .onConflict((oc) => oc.columns(["workspace_id", "name"]).doNothing())
    .executeTakeFirst();
  if (inserted.numInsertedOrUpdatedRows === 0n) throw taken();
  return statusNow(ctx, input.name);
}

/**
 * Removes what the workspace connected: a custom engine altogether (its answers stay, under its
 * name), a built-in engine's key and model (the server's apply again).
 */
export async function removeEngine(ctx: ServiceContext, name: string): Promise<EngineStatus | null> {
  const { custom, row } = await target(ctx, name);
  if (row !== undefined) {
    await ctx.db
      .deleteFrom("workspace_engines")
      .where("workspace_id", "=", ctx.workspace.id)
      .where("name", "=", name)
      .execute();
  }
  return custom ? null : statusNow(ctx, name);
}

/**
 * "Test connection": asks the engine one short question with the key it answers with for this
 * workspace (one attempt), and records the outcome: `failing` with the vendor's error, scrubbed
 * of every key, or `ready`. Only an engine of the workspace's plan is tested (ENGINE_NOT_ALLOWED),
 * at most ENGINE_TEST_LIMIT times a minute per workspace (RATE_LIMIT_EXCEEDED, with Retry-After).
 */
export async function testEngine(
  ctx: ServiceContext,
  name: string,
): Promise<{ ok: boolean; answer: string | null; error: string | null; engine: EngineStatus }> {
  const engines = await workspaceEngines(ctx);
  if (!engines.isKnown(name)) throw notFound("engine", name);
  checkEnginesInPlan(ctx, [name], "engine");
  await checkTestRate(ctx);
  const outcome = await engines.probe(
    name,
    { prompt: TEST_QUESTION, country: null, language: null, sample: 1, seed: `test-${name}` },
    Math.min(TEST_TIMEOUT_MS, engines.timeoutMs),
  );
  const error = outcome.ok ? null : outcome.error.message.slice(0, 1_000);
  if (engines.isConfigured(name)) {
    const now = ctx.clock.now().toISOString();
    const recorded = { status: outcome.ok ? "ready" : "failing", last_error: error, tested_at: now, updated_at: now };
    const existing = engines.rowOf(name);
    if (existing === undefined) {
      await ctx.db
        .insertInto("workspace_engines")
        .values({ ...builtInRow(ctx, name, now), ...recorded })
        .onConflict((oc) => oc.columns(["workspace_id", "name"]).doUpdateSet(recorded))
        .execute();
    } else {
      // Only the outcome changes: `updated_at` is kept, so that the engine's lane is not built again.
      const { updated_at: _kept, ...outcomeOnly } = recorded;
      await ctx.db
        .updateTable("workspace_engines")
        .set(outcomeOnly)
        .where("workspace_id", "=", ctx.workspace.id)
        .where("name", "=", name)
        .execute();
    }
  }
  return {
    ok: outcome.ok,
    answer: outcome.ok ? outcome.answer.text.slice(0, ANSWER_CHARS) : null,
    error,
    engine: statusOf(ctx, await workspaceEngines(ctx), name),
  };
}

/** A built-in engine's row before the workspace set anything on it: no key, no model, untested. */
function builtInRow(ctx: ServiceContext, name: string, now: string) {
  return {
    workspace_id: ctx.workspace.id,
    name,
    custom: false,
    title: null,
    api_key: null,
    key_hint: null,
    model: null,
    base_url: null,
    status: "untested",
    last_error: null,
    tested_at: null,
    created_at: now,
    updated_at: now,
  };
}
