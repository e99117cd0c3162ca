import type { Sightline } from "../client.ts";
import type { GetConversationScriptStatsQuery, ListConversationsQuery } from "../generated/operations.ts";
import type {
  Conversation,
  ConversationDeleted,
  ConversationList,
  ConversationScript,
  ConversationScriptCreate,
  ConversationScriptList,
  ConversationScriptStats,
  ConversationScriptUpdate,
} from "../generated/schemas.ts";

/** A brand's conversation scripts and the conversations they ran: `sightline.conversations`. */
export class Conversations {
  constructor(private readonly client: Sightline) {}

  /** @example const { data } = await sightline.conversations.scripts("prj_…"); */
  scripts(projectId: string): Promise<ConversationScriptList> {
    return this.client.request("listConversationScripts", { params: { id: projectId } });
  }

  /**
   * Adds a script: an opening question and one to five follow-ups, run by the brand's analyses.
   * @example await sightline.conversations.createScript("prj_…", { name: "Rule out the leader", turns: ["Best CRM for an agency?", "We can't use {top_competitor_named}; what else?"] });
   */
  createScript(projectId: string, body: ConversationScriptCreate): Promise<ConversationScript> {
    return this.client.request("createConversationScript", { params: { id: projectId }, body });
  }

  script(projectId: string, scriptId: string): Promise<ConversationScript> {
    return this.client.request("getConversationScript", { params: { id: projectId, script_id: scriptId } });
  }

  updateScript(projectId: string, scriptId: string, body: ConversationScriptUpdate): Promise<ConversationScript> {
    return this.client.request("updateConversationScript", { params: { id: projectId, script_id: scriptId }, body });
  }

  deleteScript(projectId: string, scriptId: string): Promise<ConversationDeleted> {
    return this.client.request("deleteConversationScript", { params: { id: projectId, script_id: scriptId } });
  }

  /**
   * Where the brand enters and drops out of the script's conversations, per engine, with intervals.
   * @example const { engines } = await sightline.conversations.stats("prj_…", "cvs_…");
   */
  stats(
    projectId: string,
    scriptId: string,
    query: GetConversationScriptStatsQuery = {},
  ): Promise<ConversationScriptStats> {
    return this.client.request("getConversationScriptStats", { params: { id: projectId, script_id: scriptId }, query });
  }

  /** @example const { data } = await sightline.conversations.list("prj_…", { script_id: "cvs_…" }); */
  list(projectId: string, query: ListConversationsQuery = {}): Promise<ConversationList> {
    return this.client.request("listConversations", { params: { id: projectId }, query });
  }

  /** One conversation, turn by turn, with where the tracked names are in each answer. */
  retrieve(projectId: string, conversationId: string): Promise<Conversation> {
    return this.client.request("getConversation", { params: { id: projectId, conversation_id: conversationId } });
  }
}
