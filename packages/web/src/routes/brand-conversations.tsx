import { useQuery } from "@tanstack/react-query";
import { PlusIcon } from "lucide-react";
import { QueryState, RoleNote } from "../components/page-states.tsx";
import { SectionCard } from "../components/section-card.tsx";
import { Button } from "../components/ui/button.tsx";
import { useBrand } from "../features/brand-page/brand-context.tsx";
import { FiltersBar } from "../features/brand-page/filters-bar.tsx";
import { conversationsQuery, MAX_SCRIPTS, scriptsQuery } from "../features/conversations/conversations-api.ts";
import { ConversationsList } from "../features/conversations/conversations-list.tsx";
import { ScriptDialog } from "../features/conversations/script-dialog.tsx";
import { ScriptsList } from "../features/conversations/scripts-list.tsx";
import { useTitle } from "../lib/use-title.ts";

/**
 * A brand's conversations (issue 29): the scripts of questions a buyer asks one after the other,
 * each with how the brand fares across its turns per engine, and the conversations analyses held.
 */
export function BrandConversationsPage() {
  const { workspaceId, project, canEdit } = useBrand();
  useTitle(`Conversations · ${project.name}`);
  const scripts = useQuery(scriptsQuery(workspaceId, project.id));
  const conversations = useQuery(conversationsQuery(workspaceId, project.id));
  const count = scripts.data?.data.length ?? 0;
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="grid max-w-3xl gap-1">
          <h2 className="text-lg font-semibold">Conversations</h2>
          <p className="text-sm text-muted-foreground">
            Buyers ask follow-ups. A script is the questions they ask one after the other; each analysis of the brand
            holds it as one conversation on every engine that holds conversations (engines asked through their API;
            search and web surfaces answer single questions), one credit per turn. See whether the brand enters the
            conversation, survives to the final answer, or drops out.
          </p>
        </div>
        {canEdit && count < MAX_SCRIPTS && (
          <ScriptDialog
            trigger={
              <Button>
                <PlusIcon aria-hidden="true" />
                New script
              </Button>
            }
          />
        )}
      </div>
      {!canEdit && <RoleNote>Viewers read the conversations; members write and change the scripts.</RoleNote>}
      {count > 0 && <FiltersBar periodOnly />}
      <QueryState query={scripts} loading="Loading the scripts…" error="The scripts could not be loaded" />
      {scripts.data && <ScriptsList scripts={scripts.data.data} />}
      {canEdit && count >= MAX_SCRIPTS && (
        <p className="text-sm text-muted-foreground">
          A brand has at most {MAX_SCRIPTS} scripts: delete one to write another.
        </p>
      )}
      <SectionCard
        titleId="recent-conversations-title"
        title="Recent conversations"
        description="The latest conversations analyses held, newest first. Open one to read every turn, with the names highlighted."
      >
        <QueryState
          query={conversations}
          loading="Loading the conversations…"
          error="The conversations could not be loaded"
        />
        {conversations.data && (
          <ConversationsList
            conversations={conversations.data.data}
            more={conversations.data.has_more}
            hasScripts={count > 0}
          />
        )}
      </SectionCard>
    </div>
  );
}
