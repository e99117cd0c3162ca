import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ExternalLinkIcon, PresentationIcon } from "lucide-react";
import { EmptyState, QueryState } from "../../components/page-states.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table.tsx";
import { DateText } from "../../components/when.tsx";
import { plural } from "../../lib/format.ts";
import type { AgencyRole } from "../agencies/agencies-api.ts";
import { agencyRoleAtLeast } from "../agencies/agency-roles.ts";
import { ConvertPitchDialog } from "./convert-pitch-dialog.tsx";
import { DeletePitch } from "./delete-pitch.tsx";
import { PitchStatus, pitchTitle } from "./pitch-status.tsx";
import { type Pitch, pitchesQuery } from "./pitches-api.ts";

/** The agency's pitches, newest first, each with its status and what can be done with it. */
export function PitchesList({ agencyId, role }: { agencyId: string; role: AgencyRole }) {
  const pitches = useQuery(pitchesQuery(agencyId));
  return (
    <>
      <QueryState query={pitches} loading="Loading the pitches…" error="The pitches could not be loaded" />
      {pitches.data?.data.length === 0 && (
        <EmptyState icon={<PresentationIcon />} title="No pitches yet">
          {agencyRoleAtLeast(role, "strategist")
            ? "Start one from a prospect's website: one analysis against its competitors, and a report under your agency's name to send them."
            : "Strategists and admins make pitches; they will appear here."}
        </EmptyState>
      )}
      {pitches.data && pitches.data.data.length > 0 && (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Prospect</TableHead>
              <TableHead>Status</TableHead>
              <TableHead wide>Answers</TableHead>
              <TableHead wide>Started</TableHead>
              <TableHead wide srOnly>
                Actions
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {pitches.data.data.map((pitch) => (
              <PitchRow key={pitch.id} agencyId={agencyId} pitch={pitch} role={role} />
            ))}
          </TableBody>
        </Table>
      )}
    </>
  );
}

function PitchRow({ agencyId, pitch, role }: { agencyId: string; pitch: Pitch; role: AgencyRole }) {
  const title = pitchTitle(pitch);
  const actions = (
    <div className="flex flex-wrap gap-2 md:justify-end">
      {pitch.share_url && (
        <Button asChild variant="outline" size="sm">
          <a
            href={pitch.share_url}
            target="_blank"
            rel="noreferrer noopener"
            aria-label={`Open the report for ${title} (opens in a new tab)`}
          >
            <ExternalLinkIcon aria-hidden="true" />
            Report
          </a>
        </Button>
      )}
      {agencyRoleAtLeast(role, "admin") && pitch.status === "ready" && (
        <ConvertPitchDialog agencyId={agencyId} pitch={pitch} />
      )}
      {agencyRoleAtLeast(role, "strategist") && pitch.status !== "converted" && (
        <DeletePitch agencyId={agencyId} pitch={pitch} />
      )}
    </div>
  );
  return (
    <TableRow>
      <TableCell className="min-w-0 align-top md:align-middle">
        <Link
          to="/agency/$agencyId/pitches/$pitchId"
          params={{ agencyId, pitchId: pitch.id }}
          className="font-medium break-words text-primary underline-offset-4 hover:underline focus-visible:rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          {title}
        </Link>
        <span className="block text-xs break-all text-muted-foreground">{pitch.website}</span>
        {/* On a phone, the answers, the date and the actions sit under the name. */}
        <div className="mt-2 grid gap-2 md:hidden">
          <span className="text-xs text-muted-foreground">
            {pitch.answers.total > 0 ? `${pitch.answers.done} of ${plural(pitch.answers.total, "answer")} · ` : ""}
            started <DateText value={pitch.created_at} />
          </span>
          {actions}
        </div>
      </TableCell>
      <TableCell className="align-top md:align-middle">
        <PitchStatus status={pitch.status} />
      </TableCell>
      <TableCell wide className="tabular-nums whitespace-nowrap">
        {pitch.answers.total > 0 ? `${pitch.answers.done} of ${pitch.answers.total}` : "–"}
      </TableCell>
      <TableCell wide className="whitespace-nowrap">
        <DateText value={pitch.created_at} />
      </TableCell>
      <TableCell wide>{actions}</TableCell>
    </TableRow>
  );
}
