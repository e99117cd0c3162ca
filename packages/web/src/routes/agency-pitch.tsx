import { useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { AlertTriangleIcon } from "lucide-react";
import { useState } from "react";
import { BackLink } from "../components/back-link.tsx";
import { ErrorState, LoadingState } from "../components/page-states.tsx";
import { SectionCard } from "../components/section-card.tsx";
import { DateText } from "../components/when.tsx";
import { useAgency } from "../features/agencies/agency-context.tsx";
import { agencyRoleAtLeast } from "../features/agencies/agency-roles.ts";
import { ConvertPitchDialog } from "../features/pitches/convert-pitch-dialog.tsx";
import { DeletePitch } from "../features/pitches/delete-pitch.tsx";
import { PitchFigures } from "../features/pitches/pitch-figures.tsx";
import { PitchProgress } from "../features/pitches/pitch-progress.tsx";
import { PitchSetup } from "../features/pitches/pitch-setup.tsx";
import { PitchShare } from "../features/pitches/pitch-share.tsx";
import { PitchStatus, pitchTitle } from "../features/pitches/pitch-status.tsx";
import { type Pitch, type PitchCreated, pitchQuery, suggestionKey } from "../features/pitches/pitches-api.ts";
import { isNotFound } from "../lib/navigation.ts";
import { useTitle } from "../lib/use-title.ts";

const route = getRouteApi("/_app/agency/$agencyId/pitches/$pitchId");

/** `/agency/:agencyId/pitches/:pitchId`: one pitch, from its setup through its run to its shared report. */
export function PitchPage() {
  const agency = useAgency();
  const { pitchId } = route.useParams();
  const pitch = useQuery(pitchQuery(agency.id, pitchId));
  useTitle(pitch.data ? `Pitch: ${pitchTitle(pitch.data)}` : "Pitch");

  return (
    <div className="grid gap-4">
      <BackLink to="/agency/$agencyId/pitches" params={{ agencyId: agency.id }}>
        All pitches
      </BackLink>
      {pitch.isPending && <LoadingState label="Loading the pitch…" />}
      {pitch.isError &&
        (isNotFound(pitch.error) ? (
          <p className="text-sm">This pitch does not exist any more: it may have been deleted.</p>
        ) : (
          <ErrorState error={pitch.error} title="The pitch could not be loaded" onRetry={() => pitch.refetch()} />
        ))}
      {pitch.data && <PitchDetails pitch={pitch.data} />}
    </div>
  );
}

function PitchDetails({ pitch }: { pitch: Pitch }) {
  const agency = useAgency();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // What the website suggested, when the pitch was made in this visit (read once).
  const [made] = useState(() =>
    queryClient.getQueryData<Pick<PitchCreated, "suggestion" | "problem">>(suggestionKey(agency.id, pitch.id)),
  );
  const canRun = agencyRoleAtLeast(agency.role, "strategist");
  const title = pitchTitle(pitch);
  const step = pitch.status === "draft" ? 2 : 3;

  return (
    <SectionCard
      titleId="pitch-title"
      title={
        <span className="flex flex-wrap items-center gap-2">
          <span className="break-words">Pitch: {title}</span> <PitchStatus status={pitch.status} />
        </span>
      }
      description={
        <>
          <span className="break-all">{pitch.website}</span> · started <DateText value={pitch.created_at} />
          {pitch.status !== "converted" && ` · step ${step} of 3`}
        </>
      }
      contentClassName="grid gap-6"
    >
      {pitch.status === "draft" && made?.problem && (
        <p role="status" className="flex gap-2 rounded-md bg-muted px-3 py-2 text-sm">
          <AlertTriangleIcon className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
          We could not read {pitch.website}: {made.problem.replace(/[;.]\s*fill in the brand by hand.*$/i, "")}. Fill in
          the prospect by hand.
        </p>
      )}
      {pitch.status === "draft" &&
        (canRun ? (
          <PitchSetup agencyId={agency.id} pitch={pitch} suggestion={made?.suggestion ?? null} />
        ) : (
          <p className="text-sm text-muted-foreground">A strategist or an admin sets this pitch up and runs it.</p>
        ))}
      {pitch.status !== "draft" && (
        <section aria-labelledby="pitch-run-title" className="grid gap-3">
          <h3 id="pitch-run-title" className="text-sm font-semibold">
            The analysis
          </h3>
          <PitchProgress pitch={pitch} />
          <PitchFigures pitch={pitch} />
          {pitch.status === "failed" && (
            <p role="alert" className="text-sm text-destructive">
              {pitch.error ?? "The analysis failed."}
            </p>
          )}
        </section>
      )}
      {(pitch.status === "ready" || pitch.status === "converted") && (
        <section aria-labelledby="pitch-report-title" className="grid gap-3">
          <div>
            <h3 id="pitch-report-title" className="text-sm font-semibold">
              The report
            </h3>
            <p className="mt-1 text-sm text-muted-foreground">
              Anyone with the link opens it, read-only and without an account, under your agency's branding, for 90
              days.
            </p>
          </div>
          <PitchShare agencyId={agency.id} pitch={pitch} canShare={canRun} />
        </section>
      )}
      {pitch.status === "converted" ? (
        <p className="text-sm">
          This prospect is a client now:{" "}
          <Link
            to="/w/$workspaceId"
            params={{ workspaceId: pitch.workspace_id }}
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            open its workspace
          </Link>
          .
        </p>
      ) : (
        (canRun || agencyRoleAtLeast(agency.role, "admin")) && (
          <div className="flex flex-wrap gap-2 border-t pt-4">
            {agencyRoleAtLeast(agency.role, "admin") && pitch.status === "ready" && (
              <ConvertPitchDialog agencyId={agency.id} pitch={pitch} />
            )}
            {canRun && (
              <DeletePitch
                agencyId={agency.id}
                pitch={pitch}
                onDeleted={() => void navigate({ to: "/agency/$agencyId/pitches", params: { agencyId: agency.id } })}
              />
            )}
          </div>
        )
      )}
    </SectionCard>
  );
}
