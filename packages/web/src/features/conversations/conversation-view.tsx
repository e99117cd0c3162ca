import type { Conversation } from "@sightline/sdk";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { AlertTriangleIcon, ArrowDownRightIcon, ArrowUpRightIcon, BanIcon, FlagIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Badge } from "../../components/ui/badge.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { countryLabel } from "../../lib/countries.ts";
import { position, sentimentWord } from "../../lib/figures.ts";
import { engineName, formatDateTime } from "../../lib/format.ts";
import { MeasuredAnswerText, MentionLegend } from "../answers/answer-text.tsx";
import { personasQuery } from "../audiences/audiences-api.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import type { ConversationTurn } from "./conversations-api.ts";
import { outcomeSentence, reasonOf } from "./outcome.ts";
import { turnName } from "./script-stats.tsx";
import { personaName } from "./scripts-list.tsx";

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{term}</dt>
      <dd className="text-sm font-medium wrap-anywhere">{children}</dd>
    </div>
  );
}

/** One conversation: who asked and where, how it went for the brand, then every turn, question and answer. */
export function ConversationView({ conversation }: { conversation: Conversation }) {
  const { workspaceId, project } = useBrand();
  const personas = useQuery(personasQuery(workspaceId, project.id));
  const turns = conversation.turns ?? [];
  return (
    <div className="grid gap-4">
      <Card aria-labelledby="conversation-title">
        <CardHeader>
          <div className="min-w-0">
            <p className="text-xs text-muted-foreground">Conversation</p>
            <CardTitle id="conversation-title" className="mt-1 wrap-anywhere">
              {conversation.script_name}
            </CardTitle>
          </div>
        </CardHeader>
        <CardContent className="grid gap-4">
          <p className="text-base font-medium">{outcomeSentence(conversation, project.name)}</p>
          <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <Fact term="Engine">{engineName(conversation.engine)}</Fact>
            <Fact term="Asked as">{personaName(personas.data?.data, conversation.persona_id)}</Fact>
            <Fact term="Asked from">
              {conversation.country ? countryLabel(conversation.country) : "No particular country"}
            </Fact>
            <Fact term="Held">
              <time dateTime={conversation.created_at}>{formatDateTime(conversation.created_at)}</time>
              {`, sample ${conversation.sample}`} in{" "}
              <Link
                to="/w/$workspaceId/brands/$brandId/analyses/$analysisId"
                params={{ workspaceId, brandId: project.id, analysisId: conversation.analysis_id }}
                className="font-normal text-primary underline underline-offset-4"
              >
                an analysis
              </Link>
            </Fact>
          </dl>
          <MentionLegend project={project} />
        </CardContent>
      </Card>
      <ol className="grid gap-4" aria-label="Turns">
        {turns.map((turn) => (
          <TurnItem key={turn.turn} turn={turn} conversation={conversation} />
        ))}
      </ol>
    </div>
  );
}

/** What the turn meant for the brand, in words (the icon and colour only repeat them). */
function TurnMarkers({ turn, conversation }: { turn: ConversationTurn; conversation: Conversation }) {
  const { project } = useBrand();
  const last = turn.turn === conversation.turns_planned;
  if (turn.status !== "succeeded") return null;
  return (
    <div className="flex flex-wrap items-center gap-2 [&>[data-slot=badge]]:whitespace-normal">
      {conversation.entry_turn === turn.turn && (
        <Badge variant="success">
          <ArrowUpRightIcon aria-hidden="true" />
          {project.name} enters the conversation here
        </Badge>
      )}
      {conversation.drop_turn === turn.turn && (
        <Badge variant="warning">
          <ArrowDownRightIcon aria-hidden="true" />
          {project.name} drops out here: not named from this turn on
        </Badge>
      )}
      {last && conversation.survived === true && (
        <Badge variant="success">
          <FlagIcon aria-hidden="true" />
          Still named in the final answer
        </Badge>
      )}
      {conversation.entry_turn !== turn.turn && turn.mentioned && <Badge variant="outline">{project.name} named</Badge>}
      {conversation.drop_turn !== turn.turn && !turn.mentioned && (
        <Badge variant="muted">{project.name} not named</Badge>
      )}
    </div>
  );
}

function TurnItem({ turn, conversation }: { turn: ConversationTurn; conversation: Conversation }) {
  const { workspaceId, project } = useBrand();
  const headingId = `turn-${turn.turn}`;
  return (
    <li>
      <Card className="gap-3 py-4" aria-labelledby={headingId}>
        <CardContent className="grid gap-3 px-4 sm:px-6">
          <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
            <h3 id={headingId} className="text-sm font-semibold">
              {turnName(turn.turn)}
            </h3>
            <TurnMarkers turn={turn} conversation={conversation} />
          </div>
          <div className="grid gap-1">
            <p className="text-xs font-medium text-muted-foreground">
              {turn.status === "not_asked" ? "Question (as written, not asked)" : "Question"}
            </p>
            <p className="rounded-md bg-muted px-3 py-2 text-sm font-medium wrap-anywhere">{turn.prompt}</p>
          </div>
          <div className="grid gap-1">
            <p className="text-xs font-medium text-muted-foreground">Answer of {engineName(conversation.engine)}</p>
            {turn.status === "not_asked" && (
              <p className="flex items-start gap-2 rounded-md border border-dashed px-3 py-2 text-sm">
                <BanIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                <span>
                  <strong className="font-medium">
                    {conversation.status === "running" ? "Not asked yet." : "Not asked."}
                  </strong>{" "}
                  {turn.error ? `${capital(reasonOf(turn.error))}.` : notAskedReason(conversation)}
                </span>
              </p>
            )}
            {turn.status === "failed" && (
              <p className="flex items-start gap-2 rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm">
                <AlertTriangleIcon className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
                <span>
                  <strong className="font-medium">The engine did not answer.</strong>{" "}
                  {turn.error ? `${capital(turn.error)}.` : ""} The conversation stopped here.
                </span>
              </p>
            )}
            {turn.status === "succeeded" && (
              <div className="rounded-lg border bg-background p-4">
                {turn.text ? (
                  <MeasuredAnswerText text={turn.text} mentions={turn.mentions} />
                ) : (
                  <p className="text-sm">
                    {turn.text === null
                      ? "(text removed by the server's retention setting; its measures are kept)"
                      : "(empty answer)"}
                  </p>
                )}
              </div>
            )}
          </div>
          {turn.status === "succeeded" && (
            <p className="text-xs text-muted-foreground">
              {turn.mentioned
                ? `${project.name} at position ${position(turn.position)}, ${sentimentWord(turn.sentiment)}.`
                : `${project.name} not named.`}{" "}
              Competitors named: {turn.competitors_named.length > 0 ? turn.competitors_named.join(", ") : "none"}.
              {turn.result_id && (
                <>
                  {" "}
                  <Link
                    to="/w/$workspaceId/brands/$brandId/answers/$resultId"
                    params={{ workspaceId, brandId: project.id, resultId: turn.result_id }}
                    className="text-primary underline underline-offset-4"
                  >
                    Open this answer with its citations
                  </Link>
                </>
              )}
            </p>
          )}
        </CardContent>
      </Card>
    </li>
  );
}

/** Why a turn was not asked when the server gave no reason: the conversation stopped, or is still under way. */
function notAskedReason(conversation: Conversation): string {
  if (conversation.status === "running") return "The conversation is still being asked.";
  if (conversation.stop_reason) return `The conversation stopped before it: ${reasonOf(conversation.stop_reason)}.`;
  return "The conversation stopped before it.";
}

function capital(text: string): string {
  const trimmed = text.replace(/[.\s]+$/, "");
  return trimmed === "" ? trimmed : `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}`;
}
