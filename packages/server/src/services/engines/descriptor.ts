import type { PlanName } from "../plan-names.ts";
import type { EnginePrice } from "./prices.ts";
import type { EngineAdapter } from "./types.ts";

/**
 * How an engine is reached (DESIGN.md §6): `api` asks the vendor's model API (with its search tool);
 * `web` is what a person sees in the product's own interface, captured through a SERP or scraping
 * provider's API.
 */
export type Surface = "api" | "web";

/** How to reach one engine's vendor, as the operator configured it. */
export interface VendorSettings {
  apiKey: string | null;
  baseUrl: string | null;
  model: string;
}

/** A vendor's settings once its key is known to be there: what an adapter is built from. */
export type CredentialedSettings = VendorSettings & { apiKey: string };

/** What every adapter may need besides its vendor's settings. */
export interface BuildOptions {
  timeoutMs: number;
  sandboxLatencyMs: number;
}

interface DescriptorBase<Name extends string> {
  /** The name requests use (`chatgpt`), lower-case letters, digits and `_`. */
  name: Name;
  surface: Surface;
  /**
   * For a `web` engine, the `api` engine asking the same product through its vendor's API
   * (`chatgpt_web` → `chatgpt`): analyses naming both compare the two surfaces. Absent when the
   * product has no API of its own (Google AI Mode, Copilot) and on every `api` engine.
   */
  counterpart?: string;
  /** Its name as people read it (`ChatGPT (web)`), wherever an engine is shown: dashboard, reports, e-mails. */
  title: string;
  /** What answers, in a few words: the README's engine table and the variables' descriptions say it. */
  vendor: string;
  /** The smallest built-in plan that includes the engine; every larger plan includes it too. */
  minimumPlan: PlanName;
  /** The default model's list prices (docs/costs.md says where each comes from). */
  price: EnginePrice;
}

/** An engine behind a vendor's API key. */
export interface VendorDescriptor<Name extends string = string> extends DescriptorBase<Name> {
  credentials: "api_key";
  /** Its variables: `<prefix>_API_KEY`, `<prefix>_BASE_URL` and, unless `modelVariable` is false, `<prefix>_MODEL`. */
  prefix: string;
  defaultModel: string;
  /** False when the vendor has no model to choose (SerpApi): then there is no `<prefix>_MODEL`. */
  modelVariable: boolean;
  build(settings: CredentialedSettings, options: BuildOptions): EngineAdapter;
}

/** An engine that needs nothing from the operator and nothing from the network (the sandbox). */
export interface OfflineDescriptor<Name extends string = string> extends DescriptorBase<Name> {
  credentials: "none";
  /** Requests in flight at once per worker: no vendor to spare, so more than a vendor's limit. */
  concurrency: number;
  build(settings: null, options: BuildOptions): EngineAdapter;
}

/** Everything Sightline knows about one built-in engine; the catalog, variables and registry derive from these. */
export type EngineDescriptor<Name extends string = string> = VendorDescriptor<Name> | OfflineDescriptor<Name>;

/** Keeps the descriptor's literal name and kind in its type, so that `EngineName` is a union of names. */
export function defineEngine<const D extends EngineDescriptor>(descriptor: D): D {
  return descriptor;
}
