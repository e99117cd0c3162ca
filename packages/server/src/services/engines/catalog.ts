import type { OfflineDescriptor, Surface, VendorDescriptor } from "./descriptor.ts";
import { DESCRIPTORS } from "./descriptors/index.ts";

type Descriptor = (typeof DESCRIPTORS)[number];

/** Every built-in engine's name. Custom OpenAI-compatible endpoints come from config. */
export type EngineName = Descriptor["name"];

/** The built-in engines that need a vendor's key. */
export type VendorEngine = Extract<Descriptor, { credentials: "api_key" }>["name"];

/** Every engine Sightline knows by name, in the descriptors' order. */
export const ENGINES: readonly EngineName[] = DESCRIPTORS.map((descriptor) => descriptor.name);

/** A built-in engine's descriptor: a vendor's one is keyed by a `VendorEngine` name. */
export type BuiltInDescriptor = OfflineDescriptor<EngineName> | VendorDescriptor<VendorEngine>;

export const ENGINE_DESCRIPTORS: readonly BuiltInDescriptor[] = DESCRIPTORS;

export const VENDOR_DESCRIPTORS: readonly VendorDescriptor<VendorEngine>[] = DESCRIPTORS.filter(
  (descriptor): descriptor is Extract<Descriptor, { credentials: "api_key" }> => descriptor.credentials === "api_key",
);

export function isEngineName(value: string): value is EngineName {
  return (ENGINES as readonly string[]).includes(value);
}

/** How an engine's answers are obtained: a built-in engine's descriptor says; custom endpoints are APIs. */
export function surfaceOf(engine: string): Surface {
  return ENGINE_DESCRIPTORS.find((descriptor) => descriptor.name === engine)?.surface ?? "api";
}

/**
 * The pairs of engines asking the same product on its two surfaces (`chatgpt` and `chatgpt_web`),
 * from the web descriptors' `counterpart`, in the descriptors' order.
 */
export function surfacePairs(): { api: EngineName; web: EngineName }[] {
  return ENGINE_DESCRIPTORS.flatMap((descriptor) =>
    descriptor.surface === "web" && descriptor.counterpart !== undefined && isEngineName(descriptor.counterpart)
      ? [{ api: descriptor.counterpart, web: descriptor.name }]
      : [],
  );
}
