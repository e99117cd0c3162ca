import type {
  Conversation,
  ConversationScript,
  ConversationScriptCreate,
  ConversationScriptStats,
  ConversationScriptUpdate,
} from "@sightline/sdk";
import { queryOptions } from "@tanstack/react-query";
import { v1Call } from "../../lib/api.ts";
import type { Period } from "../../lib/period.ts";
import { keys } from "../../lib/queries.ts";

export type { ConversationScript, ConversationScriptCreate };
export type ConversationTurn = NonNullable<Conversation["turns"]>[number];
export type EngineStats = ConversationScriptStats["engines"][number];

/** A brand has at most this many scripts (the API's limit); a script has an opening question and 1 to 5 follow-ups. */
export const MAX_SCRIPTS = 10;
export const MAX_FOLLOW_UPS = 5;
/** The recent conversations a page lists. */
const RECENT = 25;

function scriptsKey(workspaceId: string, projectId: string) {
  return keys.workspacePart(workspaceId, "conversations", projectId, "scripts");
}

/**
 * Conversations and their figures live under "analytics": they are made by analyses, so they are
 * read again with every figure when one finishes.
 */
function conversationsKey(workspaceId: string, projectId: string, ...rest: string[]) {
  return keys.workspacePart(workspaceId, "analytics", projectId, "conversations", ...rest);
}

/** Read again every few seconds while a conversation is still being asked. */
const whileRunning = (running: boolean) => (running ? 3000 : false);

export function scriptsQuery(workspaceId: string, projectId: string) {
  return queryOptions({
    queryKey: scriptsKey(workspaceId, projectId),
    queryFn: ({ signal }) => v1Call(workspaceId, "listConversationScripts", { params: { id: projectId } }, { signal }),
  });
}

/** Every query of the brand's scripts, to refresh after one changes. */
export function allScriptsKey(workspaceId: string, projectId: string) {
  return scriptsKey(workspaceId, projectId);
}

export function createScript(
  workspaceId: string,
  projectId: string,
  body: ConversationScriptCreate,
): Promise<ConversationScript> {
  return v1Call(workspaceId, "createConversationScript", { params: { id: projectId }, body });
}

export function updateScript(
  workspaceId: string,
  projectId: string,
  scriptId: string,
  body: ConversationScriptUpdate,
): Promise<ConversationScript> {
  return v1Call(workspaceId, "updateConversationScript", { params: { id: projectId, script_id: scriptId }, body });
}

export function deleteScript(workspaceId: string, projectId: string, scriptId: string) {
  return v1Call(workspaceId, "deleteConversationScript", { params: { id: projectId, script_id: scriptId } });
}

/** A script's figures per engine over the period: entered, survived, dropped out, and each turn. */
export function scriptStatsQuery(workspaceId: string, projectId: string, scriptId: string, period: Period) {
  return queryOptions({
    queryKey: conversationsKey(workspaceId, projectId, "stats", scriptId, period.from, period.to),
    queryFn: ({ signal }) =>
      v1Call(
        workspaceId,
        "getConversationScriptStats",
        { params: { id: projectId, script_id: scriptId }, query: { from: period.from, to: period.to } },
        { signal },
      ),
  });
}

/** The brand's most recent conversations, newest first. */
export function conversationsQuery(workspaceId: string, projectId: string) {
  return queryOptions({
    queryKey: conversationsKey(workspaceId, projectId, "recent"),
    queryFn: ({ signal }) =>
      v1Call(workspaceId, "listConversations", { params: { id: projectId }, query: { limit: RECENT } }, { signal }),
    refetchInterval: (query) => whileRunning(query.state.data?.data.some((c) => c.status === "running") ?? false),
  });
}

/** One conversation with every turn. */
export function conversationQuery(workspaceId: string, projectId: string, conversationId: string) {
  return queryOptions({
    queryKey: conversationsKey(workspaceId, projectId, "one", conversationId),
    queryFn: ({ signal }) =>
      v1Call(
        workspaceId,
        "getConversation",
        { params: { id: projectId, conversation_id: conversationId } },
        { signal },
      ),
    refetchInterval: (query) => whileRunning(query.state.data?.status === "running"),
  });
}
