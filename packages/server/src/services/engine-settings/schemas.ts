import Type from "typebox";
import { component, Nullable, Patterned, StringEnum, Timestamp } from "../../lib/schema.ts";

/**
 * Settings → Engines (dashboard only, docs/dashboard-api.md): the engines a workspace can ask and
 * the connections it made itself. A key goes in and never comes out: only its last four characters.
 */

const ENGINE_STATUSES = ["ready", "no_key", "failing"] as const;

export const EngineStatusSchema = component(
  "EngineStatus",
  Type.Object(
    {
      name: Type.String({ description: "The name requests use (`chatgpt`, or a custom engine's)." }),
      title: Type.String(),
      custom: Type.Boolean({ description: "An OpenAI-compatible endpoint this workspace added." }),
      surface: StringEnum(["api", "web"] as const),
      vendor: Nullable(Type.String({ description: "What answers, in a few words." })),
      needs_key: Type.Boolean({ description: "False for the offline sandbox." }),
      source: StringEnum(["workspace", "server", "none"] as const, {
        description: "Whose key it answers with: the workspace's own, the server's, or nobody's.",
      }),
      key_hint: Nullable(Type.String({ description: "The last four characters of the workspace's key." })),
      model: Nullable(Type.String({ description: "The workspace's own model, when it chose one." })),
      default_model: Nullable(Type.String({ description: "The model asked when the workspace chose none." })),
      base_url: Nullable(Type.String({ description: "A custom engine's address." })),
      status: StringEnum(ENGINE_STATUSES, {
        description: "`ready`: it can answer; `no_key`: nobody's key; `failing`: its last test failed.",
      }),
      last_error: Nullable(Type.String({ description: "The last test's error, scrubbed of secrets." })),
      tested_at: Nullable(Timestamp),
      in_plan: Type.Boolean(),
      can_run: Type.Boolean({ description: "Whether runs may use it now: a key, and in the plan." }),
      reason: Nullable(Type.String({ description: "Why it cannot run, when it cannot." })),
      reach: Nullable(
        Type.Object(
          {
            persona: StringEnum(["instructions", "system", "preamble"] as const, {
              description:
                "How a persona reaches it: the vendor's instructions, its system prompt, or typed before the prompt.",
            }),
            country: Nullable(
              Type.String({ description: "The vendor's parameter a country is sent in; null: it cannot be placed." }),
            ),
            conversation: StringEnum(["state", "history", "none"] as const, {
              description: "How it holds a conversation: the vendor's state, the history sent back, or not at all.",
            }),
          },
          {
            additionalProperties: false,
            description:
              "How it takes a persona, a country and a conversation (issue 29); null when it cannot answer here.",
          },
        ),
      ),
    },
    { additionalProperties: false },
  ),
);

export const EngineStatusListSchema = component(
  "EngineStatusList",
  Type.Object(
    {
      data: Type.Array(EngineStatusSchema),
      workspace_keys: Type.Boolean({
        description:
          "Whether this server lets workspaces connect engines themselves (SIGHTLINE_WORKSPACE_ENGINE_KEYS).",
      }),
    },
    { additionalProperties: false },
  ),
);

const ApiKey = Type.String({
  minLength: 8,
  maxLength: 500,
  pattern: "^[\\x21-\\x7e]+$",
  description: "The vendor's key: stored encrypted, never returned.",
});
const Model = Patterned("^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$", "must be a model name such as gpt-5-mini", {
  maxLength: 100,
});
const Title = Type.String({ minLength: 1, maxLength: 60 });
const BaseUrl = Type.String({ minLength: 1, maxLength: 500, description: "An OpenAI-compatible API's base URL." });

export const EngineParams = Type.Object(
  { workspace: Type.String({ maxLength: 100 }), engine: Type.String({ maxLength: 100 }) },
  { additionalProperties: false },
);

export const UpdateEngineSchema = Type.Object(
  {
    api_key: Type.Optional(Nullable(ApiKey)),
    model: Type.Optional(Nullable(Model)),
    title: Type.Optional(Title),
    base_url: Type.Optional(BaseUrl),
  },
  { additionalProperties: false },
);

export const CreateEngineSchema = Type.Object(
  {
    name: Patterned(
      "^[a-z][a-z0-9_]{1,39}$",
      "must be 2 to 40 lower-case letters, digits or _, starting with a letter",
    ),
    title: Title,
    base_url: BaseUrl,
    model: Model,
    api_key: Type.Optional(Nullable(ApiKey)),
  },
  { additionalProperties: false },
);

export const EngineTestSchema = component(
  "EngineTest",
  Type.Object(
    {
      ok: Type.Boolean(),
      answer: Nullable(Type.String({ description: "The engine's answer, when it answered." })),
      error: Nullable(Type.String({ description: "The vendor's error, scrubbed of secrets." })),
      engine: EngineStatusSchema,
    },
    { additionalProperties: false },
  ),
);
