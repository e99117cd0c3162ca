import type { Conversation } from "@sightline/sdk";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { MessageCircleDashedIcon } from "lucide-react";
import { EmptyState } from "../../components/page-states.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { countryLabel } from "../../lib/countries.ts";
import { engineName, formatDateTime } from "../../lib/format.ts";
import { personasQuery } from "../audiences/audiences-api.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { outcomeShort } from "./outcome.ts";
import { personaName } from "./scripts-list.tsx";

/** The outcome in a word (its colour only repeats it); the phrase beside it says the rest. */
function OutcomeBadge({ conversation }: { conversation: Conversation }) {
  if (conversation.status === "running") return <Badge variant="muted">Under way</Badge>;
  if (conversation.status === "stopped") return <Badge variant="warning">Stopped</Badge>;
  if (conversation.entry_turn === null) return <Badge variant="muted">Not named</Badge>;
  if (conversation.survived) return <Badge variant="success">Survived</Badge>;
  return <Badge variant="warning">Dropped out</Badge>;
}

/** The brand's most recent conversations, each opening its turns. */
export function ConversationsList({
  conversations,
  more,
  hasScripts,
}: {
  conversations: readonly Conversation[];
  more: boolean;
  hasScripts: boolean;
}) {
  const { workspaceId, project, canEdit } = useBrand();
  const personas = useQuery(personasQuery(workspaceId, project.id));
  if (conversations.length === 0) {
    return (
      <EmptyState icon={<MessageCircleDashedIcon />} title="No conversations yet">
        {!hasScripts
          ? "Write a conversation script first; the brand's next analysis then holds it on every engine that holds conversations."
          : canEdit
            ? "The brand's next analysis holds each script switched on, on every engine that holds conversations: use Run analysis now, above."
            : "They appear once a member runs an analysis of the brand."}
      </EmptyState>
    );
  }
  return (
    <>
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Conversation</TableHead>
            <TableHead wide>Engine</TableHead>
            <TableHead wide>Asked as</TableHead>
            <TableHead>Outcome for the brand</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {conversations.map((c) => {
            const who = `${personaName(personas.data?.data, c.persona_id)}${c.country ? `, from ${countryLabel(c.country)}` : ""}`;
            return (
              <TableRow key={c.id}>
                <TableCell className="align-top">
                  <Link
                    to="/w/$workspaceId/brands/$brandId/conversations/$conversationId"
                    params={{ workspaceId, brandId: project.id, conversationId: c.id }}
                    className="font-medium text-primary underline-offset-4 wrap-anywhere hover:underline focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  >
                    {c.script_name}
                  </Link>
                  <span className="block text-xs text-muted-foreground">
                    <time dateTime={c.created_at}>{formatDateTime(c.created_at)}</time>
                    {` · sample ${c.sample}`}
                  </span>
                  <span className="block text-xs text-muted-foreground md:hidden">
                    {engineName(c.engine)} · {who}
                  </span>
                </TableCell>
                <TableCell wide className="align-top">
                  {engineName(c.engine)}
                </TableCell>
                <TableCell wide className="align-top">
                  {who}
                </TableCell>
                <TableCell className="align-top">
                  <span className="flex flex-col items-start gap-1">
                    <OutcomeBadge conversation={c} />
                    <span className="text-xs text-muted-foreground">{outcomeShort(c)}</span>
                  </span>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {more && (
        <p className="mt-3 text-sm text-muted-foreground">
          The {conversations.length} most recent conversations are shown; each script's figures above count them all.
        </p>
      )}
    </>
  );
}
