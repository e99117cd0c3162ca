import type { Selectable } from "kysely";
import type { Db } from "../../db/database.ts";
import type { WorkspaceEnginesTable } from "../../db/tables.ts";
import { ownValue } from "../../lib/own-keys.ts";
import type { Redactor } from "../../lib/redact.ts";
import { ChatCompletionsAdapter } from "./adapters/chat-completions.ts";
import { VENDOR_DESCRIPTORS } from "./catalog.ts";
import type { EngineOutbound } from "./outbound.ts";
import type { EnginePrice } from "./prices.ts";
import { type AskResult, type EngineLane, type EngineRegistry, scrubOutcome } from "./registry.ts";
import { Semaphore } from "./semaphore.ts";
import { type EngineBatchApi, type EngineOutcome, type EngineQuery, type EngineReach, failure } from "./types.ts";

export type EngineRow = Selectable<WorkspaceEnginesTable>;

/** What a workspace's engines are loaded with: any service context has it. */
export interface EngineScope {
  db: Db;
  /** Decrypts the stored keys (webhooks' SecretBox). */
  secrets: { decrypt(ciphertext: string): string };
  engines: EngineRegistry;
  engineOutbound: EngineOutbound;
  workspace: { id: string };
}

/** Whose key an engine answers with: the workspace's own, the server's (the operator's), or nobody's. */
export type EngineSource = "workspace" | "server" | "none";

/** Lanes of workspaces' own engines kept per process; past this many, the oldest is built again when next asked. */
const MAX_CACHED_LANES = 2_000;

/** A workspace's own connection: the lane built from it, or why it cannot answer. */
type Own = { lane: EngineLane; reason: null } | { lane: null; reason: string };

/**
 * The engines one workspace can ask: the server's, with the workspace's own keys winning over the
 * operator's, and the OpenAI-compatible endpoints it added. Vendors' texts are scrubbed of the
 * workspace's keys as well as the server's. Load it with `workspaceEngines(ctx)`.
 */
export class WorkspaceEngines {
  readonly #registry: EngineRegistry;
  readonly #rows: Map<string, EngineRow>;
  readonly #own: Map<string, Own>;
  readonly #custom: string[];
  readonly #redactor: Redactor;

  constructor(registry: EngineRegistry, rows: EngineRow[], own: Map<string, Own>, redactor: Redactor) {
    this.#registry = registry;
    this.#rows = new Map(rows.map((row) => [row.name, row]));
    this.#own = own;
    this.#redactor = redactor;
    const server = new Set(registry.names());
    this.#custom = rows.filter((row) => row.custom && own.has(row.name) && !server.has(row.name)).map((r) => r.name);
  }

  /** The server's engines, then the workspace's own OpenAI-compatible ones: the names its requests may use. */
  names(): string[] {
    return [...this.#registry.names(), ...this.#custom];
  }

  isKnown(name: string): boolean {
    return this.names().includes(name);
  }

  /** Whether `name` is an OpenAI-compatible endpoint this workspace added. */
  isCustom(name: string): boolean {
    return this.#custom.includes(name);
  }

  /** The workspace's stored connection for an engine (its key encrypted), if it has one. */
  rowOf(name: string): EngineRow | undefined {
    return this.#rows.get(name);
  }

  /** How an engine this workspace can ask takes a persona, a country and a conversation (null when it cannot answer). */
  reachOf(name: string): EngineReach | null {
    return this.#laneOf(name)?.adapter.reach ?? null;
  }

  #laneOf(name: string): EngineLane | undefined {
    const own = this.#own.get(name);
    if (own !== undefined) return own.lane ?? undefined;
    return this.#registry.laneOf(name);
  }

  isConfigured(name: string): boolean {
    return this.#laneOf(name) !== undefined;
  }

  /** Why the engine cannot answer for this workspace, or null when it can. */
  reasonOf(name: string): string | null {
    const own = this.#own.get(name);
    if (own !== undefined) return own.reason;
    return this.#registry.reasonOf(name);
  }

  sourceOf(name: string): EngineSource {
    if (this.#own.has(name)) return "workspace";
    return this.#registry.laneOf(name) === undefined ? "none" : "server";
  }

  ask(name: string, query: EngineQuery): Promise<AskResult> {
    return this.#registry.askVia(name, this.#laneOf(name), query, this.#redactor, this.reasonOf(name));
  }

  /** One attempt, no retry, bounded by `timeoutMs`: what "Test connection" asks. */
  async probe(name: string, query: EngineQuery, timeoutMs: number): Promise<EngineOutcome> {
    const lane = this.#laneOf(name);
    if (lane === undefined) return failure(this.reasonOf(name) ?? `unknown engine ${name}`);
    return lane.limit.run(async () => {
      let outcome: EngineOutcome;
      try {
        outcome = await lane.adapter.ask(query, AbortSignal.timeout(timeoutMs));
      } catch (error) {
        // An adapter answers failures as values; anything thrown still becomes one, not a 500.
        outcome = failure(`${name}: ${String((error as Error)?.message ?? error)}`);
      }
      return scrubOutcome(outcome, this.#redactor);
    });
  }

  /** The engine's batch API with the key it answers with, when its vendor has one (ADR 0030). */
  batchOf(name: string): EngineBatchApi | null {
    return this.#laneOf(name)?.adapter.batch ?? null;
  }

  settleBatchAnswer(name: string, outcome: EngineOutcome): AskResult {
    return this.#registry.settleBatchAnswer(name, outcome, this.#redactor);
  }

  /** A vendor's text with every secret of the server and of this workspace removed. */
  scrubMessage(text: string): string {
    return this.#redactor.scrub(text);
  }

  priceOf(name: string): EnginePrice {
    return this.#registry.priceOf(name);
  }

  get timeoutMs(): number {
    return this.#registry.timeoutMs;
  }

  get batchPollMs(): number {
    return this.#registry.batchPollMs;
  }
}

/**
 * Builds (or takes from the process's cache) the lane of one stored connection, with its key in
 * clear; null when the row names no engine that takes a key.
 */
function laneFor(scope: EngineScope, row: EngineRow, key: string | null): EngineLane | null {
  const registry = scope.engines;
  const config = registry.config;
  const id = `${scope.workspace.id}\u0000${row.name}`;
  const fingerprint = [row.updated_at, row.api_key ?? "", row.model ?? "", row.base_url ?? ""].join("\n");
  const cached = registry.workspaceLanes.get(id);
  if (cached?.fingerprint === fingerprint) return cached.lane;

  let lane: EngineLane | null = null;
  const concurrency = ownValue(config.concurrencyByEngine, row.name) ?? config.concurrency;
  if (row.custom && row.base_url !== null && row.model !== null) {
    const adapter = new ChatCompletionsAdapter(
      {
        name: row.name,
        apiKey: key ?? "not-needed",
        baseUrl: row.base_url,
        model: row.model,
        // The address came from a workspace: held to the webhooks' outbound rules at every connection.
        fetch: scope.engineOutbound.fetch(),
      },
      config.timeoutMs,
    );
    lane = { adapter, limit: new Semaphore(config.concurrency) };
  } else if (!row.custom && key !== null) {
    const descriptor = VENDOR_DESCRIPTORS.find((d) => d.name === row.name);
    if (descriptor !== undefined) {
      const server = config.vendors[descriptor.name];
      const adapter = descriptor.build(
        { apiKey: key, baseUrl: server.baseUrl, model: row.model ?? server.model },
        { timeoutMs: config.timeoutMs, sandboxLatencyMs: config.sandboxLatencyMs },
      );
      lane = { adapter, limit: new Semaphore(concurrency) };
    }
  }
  registry.workspaceLanes.delete(id);
  if (lane === null) return null;
  registry.workspaceLanes.set(id, { fingerprint, lane });
  if (registry.workspaceLanes.size > MAX_CACHED_LANES) {
    const oldest = registry.workspaceLanes.keys().next().value;
    if (oldest !== undefined) registry.workspaceLanes.delete(oldest);
  }
  return lane;
}

function loadEngineRows(scope: Pick<EngineScope, "db" | "workspace">): Promise<EngineRow[]> {
  return scope.db
    .selectFrom("workspace_engines")
    .selectAll()
    .where("workspace_id", "=", scope.workspace.id)
    .orderBy("created_at")
    .orderBy("name")
    .execute();
}

/**
 * The engines workspace `scope.workspace` can ask, from its stored connections. When the operator
 * forbids workspace keys (SIGHTLINE_WORKSPACE_ENGINE_KEYS=false), connections stay stored but are
 * not used: the server's keys alone answer.
 */
export async function workspaceEngines(scope: EngineScope): Promise<WorkspaceEngines> {
  const registry = scope.engines;
  const rows = await loadEngineRows(scope);
  const own = new Map<string, Own>();
  const keys: string[] = [];
  if (registry.workspaceKeys) {
    for (const row of rows) {
      if (!row.custom && row.api_key === null) continue; // only the outcome of a test of the server's key
      let key: string | null = null;
      if (row.api_key !== null) {
        try {
          key = scope.secrets.decrypt(row.api_key);
          keys.push(key);
        } catch {
          own.set(row.name, {
            lane: null,
            reason: `the key saved for ${row.name} cannot be read (the server's SIGHTLINE_SECRET_KEY changed): set it again in Settings → Engines`,
          });
          continue;
        }
      }
      const lane = laneFor(scope, row, key);
      if (lane !== null) own.set(row.name, { lane, reason: null });
    }
  }
  return new WorkspaceEngines(registry, rows, own, registry.redactor.with(keys));
}
