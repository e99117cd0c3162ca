import { VENDOR_DESCRIPTORS } from "./catalog.ts";
import type { VendorDescriptor } from "./descriptor.ts";

/** A documented environment variable, as the README's tables show it. */
export interface EngineVariable {
  name: string;
  default: string;
  description: string;
}

/** The names of a vendor engine's variables; `model` is null when it has no model to choose. */
export function variableNames(descriptor: VendorDescriptor): { apiKey: string; baseUrl: string; model: string | null } {
  return {
    apiKey: `${descriptor.prefix}_API_KEY`,
    baseUrl: `${descriptor.prefix}_BASE_URL`,
    model: descriptor.modelVariable ? `${descriptor.prefix}_MODEL` : null,
  };
}

/** One vendor engine's variables, in the order of the README's engine variable table. */
export function variablesOf(descriptor: VendorDescriptor): EngineVariable[] {
  const names = variableNames(descriptor);
  const engine = `\`${descriptor.name}\``;
  return [
    {
      name: names.apiKey,
      default: "(none)",
      description: `Credentials for ${engine} (${descriptor.vendor}); without them the engine answers ENGINE_FAILURE.`,
    },
    {
      name: names.baseUrl,
      default: "(vendor's)",
      description: `Another address for ${engine}'s API: a proxy or a compatible server.`,
    },
    ...(names.model === null
      ? []
      : [{ name: names.model, default: descriptor.defaultModel, description: `The model ${engine} asks.` }]),
  ];
}

/** Every vendor engine's variables, in the descriptors' order. */
export function engineVariables(): EngineVariable[] {
  return VENDOR_DESCRIPTORS.flatMap(variablesOf);
}
