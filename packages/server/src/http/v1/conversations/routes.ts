import { breakdown } from "../../../services/analytics/breakdown.ts";
import { BreakdownQuery, BreakdownSchema } from "../../../services/analytics/breakdown-schemas.ts";
import {
  createPersona,
  deletePersona,
  getPersona,
  listPersonas,
  updatePersona,
} from "../../../services/conversations/personas.ts";
import { getConversation, listConversations, scriptStats } from "../../../services/conversations/read.ts";
import {
  ConversationListQuery,
  ConversationListSchema,
  ConversationParams,
  ConversationSchema,
  DeletedSchema,
  PersonaCreateSchema,
  PersonaListSchema,
  PersonaParams,
  PersonaSchema,
  PersonaUpdateSchema,
  ScriptCreateSchema,
  ScriptListSchema,
  ScriptParams,
  ScriptSchema,
  ScriptStatsQuery,
  ScriptStatsSchema,
  ScriptUpdateSchema,
} from "../../../services/conversations/schemas.ts";
import {
  createScript,
  deleteScript,
  getScript,
  listScripts,
  updateScript,
} from "../../../services/conversations/scripts.ts";
import { defineRoute } from "../../route.ts";
import { IdParams } from "../../schema.ts";

const tag = "Personas and conversations";
const all = <T>(data: T[]) => ({ data, has_more: false, next_cursor: null });

export const listPersonasRoute = defineRoute({
  operationId: "listPersonas",
  method: "GET",
  path: "/projects/:id/personas",
  tag,
  summary: "List a brand's personas",
  description: "Every persona of the brand (at most 10), oldest first, with the text the engines receive.",
  scope: "projects",
  extension: true,
  params: IdParams,
  success: { status: 200, description: "The personas.", schema: PersonaListSchema },
  errors: ["NOT_FOUND"],
  handler: async ({ ctx, params }) => all(await listPersonas(ctx, params.id)),
});

export const createPersonaRoute = defineRoute({
  operationId: "createPersona",
  method: "POST",
  path: "/projects/:id/personas",
  tag,
  summary: "Add a persona",
  description:
    "Adds who asks: a role, company size, industry, constraints, location and language, each optional. While active, the brand's analyses ask every prompt under each of its active personas (one credit per answer each). The engines receive the fields as one text (`context`): as the vendor's instructions or system prompt, or before the prompt on surfaces that take only a query.",
  scope: "projects",
  extension: true,
  params: IdParams,
  body: PersonaCreateSchema,
  success: { status: 201, description: "The persona, at version 1.", schema: PersonaSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, body }) => createPersona(ctx, params.id, body),
});

export const getPersonaRoute = defineRoute({
  operationId: "getPersona",
  method: "GET",
  path: "/projects/:id/personas/:persona_id",
  tag,
  summary: "Read a persona",
  description: "The persona as it is now (its `version` counts its edits).",
  scope: "projects",
  extension: true,
  params: PersonaParams,
  success: { status: 200, description: "The persona.", schema: PersonaSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => getPersona(ctx, params.id, params.persona_id),
});

export const updatePersonaRoute = defineRoute({
  operationId: "updatePersona",
  method: "PATCH",
  path: "/projects/:id/personas/:persona_id",
  tag,
  summary: "Change a persona",
  description:
    "Changes its fields: any change but `active` makes a new version, and answers asked before keep the version they were asked under.",
  scope: "projects",
  extension: true,
  params: PersonaParams,
  body: PersonaUpdateSchema,
  success: { status: 200, description: "The persona after the change.", schema: PersonaSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, body }) => updatePersona(ctx, params.id, params.persona_id, body),
});

export const deletePersonaRoute = defineRoute({
  operationId: "deletePersona",
  method: "DELETE",
  path: "/projects/:id/personas/:persona_id",
  tag,
  summary: "Delete a persona",
  description:
    "Deletes it; its answers keep it (by id and version), and scripts it asked in ask as nobody in particular.",
  scope: "projects",
  extension: true,
  params: PersonaParams,
  success: { status: 200, description: "What was deleted.", schema: DeletedSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => deletePersona(ctx, params.id, params.persona_id),
});

export const listScriptsRoute = defineRoute({
  operationId: "listConversationScripts",
  method: "GET",
  path: "/projects/:id/conversation-scripts",
  tag,
  summary: "List a brand's conversation scripts",
  description: "Every conversation script of the brand (at most 10), oldest first.",
  scope: "projects",
  extension: true,
  params: IdParams,
  success: { status: 200, description: "The scripts.", schema: ScriptListSchema },
  errors: ["NOT_FOUND"],
  handler: async ({ ctx, params }) => all(await listScripts(ctx, params.id)),
});

export const createScriptRoute = defineRoute({
  operationId: "createConversationScript",
  method: "POST",
  path: "/projects/:id/conversation-scripts",
  tag,
  summary: "Add a conversation script",
  description:
    "An opening question and one to five follow-ups, under a persona and a country. While active, each analysis of the brand that does not name its prompts runs it once per engine that holds conversations and per sample: one conversation, each turn an answer (one credit per turn).",
  scope: "projects",
  extension: true,
  params: IdParams,
  body: ScriptCreateSchema,
  success: { status: 201, description: "The script.", schema: ScriptSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, body }) => createScript(ctx, params.id, body),
});

export const getScriptRoute = defineRoute({
  operationId: "getConversationScript",
  method: "GET",
  path: "/projects/:id/conversation-scripts/:script_id",
  tag,
  summary: "Read a conversation script",
  description: "The script as it is now.",
  scope: "projects",
  extension: true,
  params: ScriptParams,
  success: { status: 200, description: "The script.", schema: ScriptSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => getScript(ctx, params.id, params.script_id),
});

export const updateScriptRoute = defineRoute({
  operationId: "updateConversationScript",
  method: "PATCH",
  path: "/projects/:id/conversation-scripts/:script_id",
  tag,
  summary: "Change a conversation script",
  description: "Changes it for the analyses to come; conversations already run keep the turns they were asked.",
  scope: "projects",
  extension: true,
  params: ScriptParams,
  body: ScriptUpdateSchema,
  success: { status: 200, description: "The script after the change.", schema: ScriptSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, body }) => updateScript(ctx, params.id, params.script_id, body),
});

export const deleteScriptRoute = defineRoute({
  operationId: "deleteConversationScript",
  method: "DELETE",
  path: "/projects/:id/conversation-scripts/:script_id",
  tag,
  summary: "Delete a conversation script",
  description: "Deletes it; the conversations it ran stay, with its name and turns as they were.",
  scope: "projects",
  extension: true,
  params: ScriptParams,
  success: { status: 200, description: "What was deleted.", schema: DeletedSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => deleteScript(ctx, params.id, params.script_id),
});

export const scriptStatsRoute = defineRoute({
  operationId: "getConversationScriptStats",
  method: "GET",
  path: "/projects/:id/conversation-scripts/:script_id/stats",
  reads: "replica",
  tag,
  summary: "Where the brand enters and drops out of a script's conversations",
  description:
    "Per engine, over the ended conversations of the period: how often the brand entered the conversation, survived to the final recommendation and dropped out (each with its Wilson 95% interval over the conversations), the median entry turn, and per turn its mention rate and how many conversations it entered or left at that turn.",
  scope: "results",
  extension: true,
  params: ScriptParams,
  query: ScriptStatsQuery,
  success: { status: 200, description: "The script's figures.", schema: ScriptStatsSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, query }) => scriptStats(ctx, params.id, params.script_id, query),
});

export const listConversationsRoute = defineRoute({
  operationId: "listConversations",
  method: "GET",
  path: "/projects/:id/conversations",
  reads: "replica",
  tag,
  summary: "List a brand's conversations",
  description:
    "Its conversations, newest first: a script run on an engine, with what it measured (entry turn, survival, drop-out turn). Filter by script, engine or analysis.",
  scope: "results",
  extension: true,
  params: IdParams,
  query: ConversationListQuery,
  success: { status: 200, description: "A page of conversations.", schema: ConversationListSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, query }) => listConversations(ctx, params.id, query),
});

export const getConversationRoute = defineRoute({
  operationId: "getConversation",
  method: "GET",
  path: "/projects/:id/conversations/:conversation_id",
  reads: "replica",
  tag,
  summary: "Read a conversation, turn by turn",
  description:
    "Every turn: the question as asked (its template filled in), the answer, whether it names the brand and where (offsets of every tracked name, to highlight), the competitors it names, and turns not asked with why.",
  scope: "results",
  extension: true,
  params: ConversationParams,
  success: { status: 200, description: "The conversation.", schema: ConversationSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params }) => getConversation(ctx, params.id, params.conversation_id),
});

export const breakdownRoute = defineRoute({
  operationId: "getProjectBreakdown",
  method: "GET",
  path: "/projects/:id/breakdown",
  reads: "replica",
  tag,
  summary: "Compare personas or countries",
  description:
    "The brand's figures per persona (`by=persona`) or per country (`by=country`) over a period, counted from its stored single answers: visibility and citation rate with their 95% intervals, average position, sentiment and visibility score, and whether each group's visibility stands apart from all answers'.",
  scope: "results",
  extension: true,
  params: IdParams,
  query: BreakdownQuery,
  success: { status: 200, description: "One group per persona or country.", schema: BreakdownSchema },
  errors: ["NOT_FOUND"],
  handler: ({ ctx, params, query }) => breakdown(ctx, params.id, query),
});
