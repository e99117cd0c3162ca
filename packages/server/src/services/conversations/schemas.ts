import Type from "typebox";
import { component, Dictionary, ListOf, Nullable, StringEnum, Timestamp } from "../../lib/schema.ts";
import { PROJECT_LIMITS } from "../limits.ts";
import { PageQuery } from "../schemas.ts";

/** How many follow-ups a script may have after its opening question. */
const MAX_FOLLOW_UPS = 5;
/** The turns a conversation has at most: the opening question and its follow-ups. */
export const MAX_TURNS = MAX_FOLLOW_UPS + 1;

const Field = (description: string, maxLength = 200) =>
  Type.Optional(Nullable(Type.String({ maxLength, description })));

const PersonaFields = {
  role: Field("What they do, e.g. `Head of marketing`."),
  company_size: Field("e.g. `50–200 employees`."),
  industry: Field("e.g. `Healthcare`."),
  constraints: Field('What they require or rule out, e.g. "We can\'t use Salesforce; under $50 a seat".', 500),
  location: Field("Where they are, e.g. `Berlin, Germany` (the country the engines are asked from is the analysis's)."),
  language: Field("The language they want answers in, e.g. `German`."),
};

export const PersonaCreateSchema = component(
  "PersonaCreate",
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 80, description: "How people refer to it, e.g. `Cautious CFO`." }),
      ...PersonaFields,
      active: Type.Optional(
        Type.Boolean({ description: "Whether the brand's analyses ask its prompts under it (true by default)." }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const PersonaUpdateSchema = component(
  "PersonaUpdate",
  Type.Object(
    {
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 80 })),
      ...PersonaFields,
      active: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false, description: "Changing a field other than `active` makes a new version." },
  ),
);

export const PersonaSchema = component(
  "Persona",
  Type.Object(
    {
      id: Type.String({ description: "Prefixed `per_`." }),
      object: Type.Literal("persona"),
      project_id: Type.String(),
      name: Type.String(),
      role: Nullable(Type.String()),
      company_size: Nullable(Type.String()),
      industry: Nullable(Type.String()),
      constraints: Nullable(Type.String()),
      location: Nullable(Type.String()),
      language: Nullable(Type.String()),
      active: Type.Boolean(),
      version: Type.Integer({
        minimum: 1,
        description: "Counts its edits; every answer records the version it was asked under.",
      }),
      context: Type.String({
        description:
          "What the engines receive: the fields as one text, in the vendor's instructions or system prompt, or before the prompt on surfaces that take only a query. Empty when only a name is set: asked as nobody in particular.",
      }),
      created_at: Timestamp,
      updated_at: Timestamp,
    },
    { additionalProperties: false },
  ),
);

export const PersonaListSchema = ListOf("PersonaList", PersonaSchema);

export const ScriptCreateSchema = component(
  "ConversationScriptCreate",
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 120 }),
      turns: Type.Array(Type.String({ minLength: 1, maxLength: PROJECT_LIMITS.promptLength }), {
        minItems: 2,
        maxItems: MAX_TURNS,
        description:
          "The opening question, then one to five follow-ups. A turn may refer to the previous answer and to the script's variables: `{brand}`, `{top_competitor_named}` (the competitor the previous answer named first), `{first_named}` (the first tracked brand it named, the brand included), and any `{name}` of `variables`.",
      }),
      variables: Type.Optional(
        Dictionary(Type.String({ maxLength: 200 }), {
          description: 'The script\'s own values for its templates, e.g. `{ "tool": "Slack" }`.',
        }),
      ),
      persona_id: Type.Optional(Nullable(Type.String({ description: "The persona who asks; none by default." }))),
      country: Type.Optional(
        Nullable(Type.String({ minLength: 2, maxLength: 2, description: "ISO country asked from; none by default." })),
      ),
      active: Type.Optional(Type.Boolean({ description: "Whether the brand's analyses run it (true by default)." })),
    },
    { additionalProperties: false },
  ),
);

export const ScriptUpdateSchema = component(
  "ConversationScriptUpdate",
  Type.Partial(ScriptCreateSchema, { additionalProperties: false }),
);

export const ScriptSchema = component(
  "ConversationScript",
  Type.Object(
    {
      id: Type.String({ description: "Prefixed `cvs_`." }),
      object: Type.Literal("conversation_script"),
      project_id: Type.String(),
      name: Type.String(),
      turns: Type.Array(Type.String()),
      variables: Dictionary(Type.String()),
      persona_id: Nullable(Type.String()),
      country: Nullable(Type.String()),
      active: Type.Boolean(),
      created_at: Timestamp,
      updated_at: Timestamp,
    },
    { additionalProperties: false },
  ),
);

export const ScriptListSchema = ListOf("ConversationScriptList", ScriptSchema);

const TurnSchema = Type.Object(
  {
    turn: Type.Integer({ minimum: 1 }),
    prompt: Type.String({ description: "The question as asked, its template filled in." }),
    result_id: Nullable(Type.String({ description: "The stored answer (`res_`); null for a turn not asked." })),
    status: StringEnum(["succeeded", "failed", "not_asked"] as const),
    text: Nullable(Type.String()),
    error: Nullable(Type.String()),
    mentioned: Type.Boolean({ description: "Whether the brand is named in this turn's answer." }),
    position: Nullable(Type.Integer({ description: "The brand's rank among the brands named (1 = first)." })),
    sentiment: Nullable(Type.Number()),
    competitors_named: Type.Array(Type.String(), { description: "Tracked competitors named, in order." }),
    mentions: Type.Array(
      Type.Object(
        { name: Type.String(), brand: Type.Boolean(), start: Type.Integer(), end: Type.Integer() },
        { additionalProperties: false },
      ),
      { description: "Where each tracked name occurs in `text` (UTF-16 offsets), to highlight it." },
    ),
  },
  { additionalProperties: false },
);

export const ConversationSchema = component(
  "Conversation",
  Type.Object(
    {
      id: Type.String({ description: "Prefixed `cnv_`." }),
      object: Type.Literal("conversation"),
      project_id: Type.String(),
      analysis_id: Type.String(),
      script_id: Type.String(),
      script_name: Type.String(),
      engine: Type.String(),
      sample: Type.Integer({ minimum: 1 }),
      persona_id: Nullable(Type.String()),
      persona_version: Nullable(Type.Integer()),
      country: Nullable(Type.String()),
      status: StringEnum(["running", "completed", "stopped"] as const, {
        description: "`stopped`: a turn failed or could not be written, and the turns after it were not asked.",
      }),
      turns_planned: Type.Integer(),
      turns_answered: Type.Integer(),
      entry_turn: Nullable(
        Type.Integer({ description: "The first turn whose answer names the brand; null if none did (or not ended)." }),
      ),
      survived: Nullable(
        Type.Boolean({ description: "Whether the last turn's answer (the final recommendation) names the brand." }),
      ),
      drop_turn: Nullable(
        Type.Integer({
          description:
            "The turn after the brand's last appearance, when it appeared and is absent from the last turn: the follow-up after which it was gone for good.",
        }),
      ),
      stop_reason: Nullable(Type.String()),
      created_at: Timestamp,
      completed_at: Nullable(Timestamp),
      turns: Type.Optional(Type.Array(TurnSchema, { description: "Every turn; on a single conversation only." })),
    },
    { additionalProperties: false },
  ),
);

export const ConversationListSchema = ListOf("ConversationList", ConversationSchema);

export const ConversationListQuery = Type.Object(
  {
    ...PageQuery,
    script_id: Type.Optional(Type.String({ maxLength: 40 })),
    engine: Type.Optional(Type.String({ maxLength: 64 })),
    analysis_id: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: false },
);

const RateSchema = Type.Object(
  {
    value: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
    count: Type.Integer({ minimum: 0 }),
    n: Type.Integer({ minimum: 0 }),
    ci_low: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
    ci_high: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
  },
  { additionalProperties: false, description: "count ÷ n with its Wilson 95% interval over the conversations." },
);

export const ScriptStatsSchema = component(
  "ConversationScriptStats",
  Type.Object(
    {
      script_id: Type.String(),
      script_name: Type.String(),
      turns: Type.Array(Type.String(), { description: "The script's turns as written." }),
      engines: Type.Array(
        Type.Object(
          {
            engine: Type.String(),
            conversations: Type.Integer({ description: "Ended conversations counted (every turn answered)." }),
            entered: RateSchema,
            survived: RateSchema,
            dropped: RateSchema,
            entry_turn_median: Nullable(Type.Number({ description: "Median entry turn of those it entered." })),
            by_turn: Type.Array(
              Type.Object(
                {
                  turn: Type.Integer(),
                  mentioned: RateSchema,
                  entered_here: Type.Integer({
                    description: "Conversations in which the brand first appeared at this turn.",
                  }),
                  dropped_here: Type.Integer({
                    description: "Conversations in which it was gone for good from this turn.",
                  }),
                },
                { additionalProperties: false },
              ),
            ),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  ),
);

export const ScriptStatsQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ maxLength: 40, description: "ISO 8601; 30 days before `to` by default." })),
    to: Type.Optional(Type.String({ maxLength: 40, description: "ISO 8601; now by default." })),
  },
  { additionalProperties: false },
);

export const ScriptParams = Type.Object(
  { id: Type.String({ maxLength: 40 }), script_id: Type.String({ maxLength: 40 }) },
  { additionalProperties: false },
);
export const PersonaParams = Type.Object(
  { id: Type.String({ maxLength: 40 }), persona_id: Type.String({ maxLength: 40 }) },
  { additionalProperties: false },
);
export const ConversationParams = Type.Object(
  { id: Type.String({ maxLength: 40 }), conversation_id: Type.String({ maxLength: 40 }) },
  { additionalProperties: false },
);

export const DeletedSchema = component(
  "ConversationDeleted",
  Type.Object(
    { id: Type.String(), object: Type.String(), deleted: Type.Literal(true) },
    { additionalProperties: false },
  ),
);
