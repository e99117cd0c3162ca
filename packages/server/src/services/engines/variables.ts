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

/** `a`, `a and b`, `a, b and c`. */
function listed(names: readonly string[]): string {
  const quoted = names.map((name) => `\`${name}\``);
  const last = quoted.pop();
  return quoted.length === 0 ? (last ?? "") : `${quoted.join(", ")} and ${last}`;
}

/**
 * One vendor engine's variables, in the order of the README's engine variable table. When other
 * engines share its prefix (one provider serving several products), the descriptions name them all.
 */
export function variablesOf(descriptor: VendorDescriptor): EngineVariable[] {
  const names = variableNames(descriptor);
  const sharing = VENDOR_DESCRIPTORS.filter((other) => other.prefix === descriptor.prefix).map((d) => d.name);
  const shared = sharing.length > 1;
  const engines = shared ? listed(sharing) : `\`${descriptor.name}\``;
  return [
    {
      name: names.apiKey,
      default: "(none)",
      description: shared
        ? `Credentials shared by ${engines}; without them these engines answer ENGINE_FAILURE.`
        : `Credentials for ${engines} (${descriptor.vendor}); without them the engine answers ENGINE_FAILURE.`,
    },
    {
      name: names.baseUrl,
      default: "(vendor's)",
      description: shared
        ? `Another address for the API of ${engines}: a proxy or a compatible server.`
        : `Another address for ${engines}'s API: a proxy or a compatible server.`,
    },
    ...(names.model === null
      ? []
      : [
          {
            name: names.model,
            default: descriptor.defaultModel,
            description: `The model ${engines} ${shared ? "ask" : "asks"}.`,
          },
        ]),
  ];
}

/**
 * Every vendor engine's variables, in the descriptors' order. Engines reached through the same
 * provider share its variables (`SERPAPI_API_KEY` serves every SerpApi engine): each is listed once,
 * where the first engine using it comes.
 */
export function engineVariables(): EngineVariable[] {
  const seen = new Set<string>();
  return VENDOR_DESCRIPTORS.flatMap(variablesOf).filter((variable) => {
    if (seen.has(variable.name)) return false;
    seen.add(variable.name);
    return true;
  });
}
