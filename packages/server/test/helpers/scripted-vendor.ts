import { ChatCompletionsAdapter } from "../../src/services/engines/adapters/chat-completions.ts";
import { type FakeChatCompletions, startFakeChatCompletions } from "./fake-vendors/index.ts";
import type { Harness } from "./harness.ts";

/**
 * An OpenAI-compatible engine ("scripted", a custom engine) answering from a local fake vendor,
 * through our real adapter and the official SDK; the test decides what every answer says.
 */
export class ScriptedVendor {
  #fake: FakeChatCompletions | undefined;
  async start(h: Harness) {
    this.#fake = await startFakeChatCompletions({ flavour: "plain" });
    h.deps.engines.use(
      new ChatCompletionsAdapter(
        { name: "scripted", apiKey: "test-key", baseUrl: this.#fake.url, model: "scripted-1" },
        5_000,
      ),
      8,
    );
    this.mentionBrand = true;
  }
  set mentionBrand(mention: boolean) {
    this.say(
      mention
        ? "The best options are Acme CRM and HubSpot. See https://acmecrm.com/pricing."
        : "Most teams pick HubSpot; Pipedrive is also good.",
    );
  }
  /** Every answer from now on is this text. */
  say(text: string) {
    this.#fake?.setAnswer({ text, citations: [] });
  }
  async stop() {
    await this.#fake?.stop();
  }
}
