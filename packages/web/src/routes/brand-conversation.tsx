import { useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { BackLink } from "../components/back-link.tsx";
import { ErrorState, LoadingState } from "../components/page-states.tsx";
import { useBrand } from "../features/brand-page/brand-context.tsx";
import { ConversationView } from "../features/conversations/conversation-view.tsx";
import { conversationQuery } from "../features/conversations/conversations-api.ts";
import { isNotFound } from "../lib/navigation.ts";
import { useTitle } from "../lib/use-title.ts";

const route = getRouteApi("/_app/w/$workspaceId/brands/$brandId/conversations/$conversationId");

/** One conversation, turn by turn. */
export function BrandConversationPage() {
  const { workspaceId, project } = useBrand();
  const { conversationId } = route.useParams();
  const conversation = useQuery(conversationQuery(workspaceId, project.id, conversationId));
  useTitle(`${conversation.data?.script_name ?? "Conversation"} · ${project.name}`);
  return (
    <div className="grid gap-4">
      <h2 className="sr-only">Conversation</h2>
      <BackLink to="/w/$workspaceId/brands/$brandId/conversations" params={{ workspaceId, brandId: project.id }}>
        All conversations
      </BackLink>
      {conversation.isPending && <LoadingState label="Loading the conversation…" />}
      {conversation.isError &&
        (isNotFound(conversation.error) ? (
          <ErrorState error={conversation.error} title="This conversation does not exist" />
        ) : (
          <ErrorState
            error={conversation.error}
            title="The conversation could not be loaded"
            onRetry={() => conversation.refetch()}
          />
        ))}
      {conversation.data && <ConversationView conversation={conversation.data} />}
    </div>
  );
}
