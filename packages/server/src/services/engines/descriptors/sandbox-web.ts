import { SandboxAdapter } from "../adapters/sandbox.ts";
import { defineEngine } from "../descriptor.ts";
import { FREE } from "../prices.ts";

/**
 * The sandbox's web surface: the same offline market as `sandbox`, answered as a consumer
 * interface would (the brand named less often), so that the API-vs-web comparison can be tried
 * and tested without any provider.
 */
export const sandboxWeb = defineEngine({
  name: "sandbox_web",
  title: "Sandbox web (offline)",
  surface: "web",
  counterpart: "sandbox",
  vendor: "Offline simulation of a web surface, no vendor (deterministic)",
  minimumPlan: "free",
  price: FREE,
  credentials: "none",
  concurrency: 64,
  build: (_settings, options) => new SandboxAdapter(options.sandboxLatencyMs, "web"),
});
