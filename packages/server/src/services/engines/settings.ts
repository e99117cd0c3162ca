import { VENDOR_DESCRIPTORS, type VendorEngine } from "./catalog.ts";
import type { VendorDescriptor, VendorSettings } from "./descriptor.ts";
import type { EnginePrice } from "./prices.ts";

export interface CustomEngineSettings {
  name: string;
  baseUrl: string;
  model: string;
  apiKey: string | null;
}

/** Engine credentials and limits: what the configuration reads from the environment, and the registry is built from. */
export interface EngineConfig {
  vendors: Record<VendorEngine, VendorSettings>;
  custom: CustomEngineSettings[];
  timeoutMs: number;
  maxRetries: number;
  /** Requests in flight at once per engine, per worker process (the most: 429s lower it for a while). */
  concurrency: number;
  /** Per engine, instead of `concurrency` (or of the sandbox's own 64): the vendor's documented limit. */
  concurrencyByEngine?: Record<string, number>;
  /** Per engine, the operator's prices, field by field over the descriptor's list prices (custom engines: over zero). */
  pricesByEngine?: Record<string, Partial<EnginePrice>>;
  /** Seconds between two looks at a vendor's batch (ADR 0030); 60 by default. */
  batchPollSeconds?: number;
  sandboxLatencyMs: number;
  /**
   * SIGHTLINE_WORKSPACE_ENGINE_KEYS: whether workspaces may connect engines themselves (their own
   * keys, their own OpenAI-compatible endpoints). True unless the operator says otherwise.
   */
  workspaceKeys?: boolean;
}

/** One settings entry per vendor engine, each from `settingsOf`. */
export function vendorSettings(
  settingsOf: (descriptor: VendorDescriptor<VendorEngine>) => VendorSettings,
): Record<VendorEngine, VendorSettings> {
  // fromEntries loses the keys' type; VENDOR_DESCRIPTORS holds exactly the VendorEngine names.
  return Object.fromEntries(
    VENDOR_DESCRIPTORS.map((descriptor) => [descriptor.name, settingsOf(descriptor)]),
  ) as Record<VendorEngine, VendorSettings>;
}

/** No vendor credentials: only the sandbox answers. What tests and a bare `npm start` get. */
export function defaultEngineConfig(): EngineConfig {
  return {
    vendors: vendorSettings((descriptor) => ({ apiKey: null, baseUrl: null, model: descriptor.defaultModel })),
    custom: [],
    timeoutMs: 90_000,
    maxRetries: 2,
    concurrency: 4,
    sandboxLatencyMs: 0,
  };
}

/** The engines' API keys, built-in and custom, for the redactor. */
export function engineSecrets(engines: EngineConfig): Array<string | null> {
  return [...Object.values(engines.vendors).map((vendor) => vendor.apiKey), ...engines.custom.map((c) => c.apiKey)];
}
