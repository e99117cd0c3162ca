import type { PlanName } from "../plan-names.ts";
import type { EngineAdapter } from "./types.ts";

/** How an engine is reached. Every engine today asks a vendor's API; a later kind reads a web page. */
type Surface = "api";

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
  /** What answers, in a few words: the README's engine table and the variables' descriptions say it. */
  vendor: string;
  /** The smallest built-in plan that includes the engine; every larger plan includes it too. */
  minimumPlan: PlanName;
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
