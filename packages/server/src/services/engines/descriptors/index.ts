import { chatgpt } from "./chatgpt.ts";
import { chatgptWeb } from "./chatgpt-web.ts";
import { claude } from "./claude.ts";
import { copilot } from "./copilot.ts";
import { deepseek } from "./deepseek.ts";
import { gemini } from "./gemini.ts";
import { geminiWeb } from "./gemini-web.ts";
import { googleAiMode } from "./google-ai-mode.ts";
import { googleAiOverview } from "./google-ai-overview.ts";
import { grok } from "./grok.ts";
import { perplexity } from "./perplexity.ts";
import { perplexityWeb } from "./perplexity-web.ts";
import { sandbox } from "./sandbox.ts";
import { sandboxWeb } from "./sandbox-web.ts";

/**
 * Every built-in engine, in the order the API and the OpenAPI document list them (new ones go
 * last). The catalog, the plans' defaults, the configuration variables and the registry all come
 * from this list: docs/adding-an-engine.md.
 */
export const DESCRIPTORS = [
  sandbox,
  chatgpt,
  claude,
  gemini,
  perplexity,
  grok,
  deepseek,
  googleAiOverview,
  sandboxWeb,
  googleAiMode,
  copilot,
  chatgptWeb,
  perplexityWeb,
  geminiWeb,
] as const;
