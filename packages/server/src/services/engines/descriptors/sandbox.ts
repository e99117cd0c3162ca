import { SandboxAdapter } from "../adapters/sandbox.ts";
import { defineEngine } from "../descriptor.ts";
import { FREE } from "../prices.ts";

/** Offline and deterministic: answers about the project's market without any vendor (ADR 0012). */
export const sandbox = defineEngine({
  name: "sandbox",
  title: "Sandbox (offline)",
  surface: "api",
  vendor: "Offline simulation, no vendor (deterministic)",
  minimumPlan: "free",
  price: FREE,
  credentials: "none",
  concurrency: 64,
  build: (_settings, options) => new SandboxAdapter(options.sandboxLatencyMs),
});
