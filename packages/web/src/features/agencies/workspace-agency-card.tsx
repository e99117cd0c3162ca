import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { BuildingIcon } from "lucide-react";
import { Field, Form, FormError, PendingButton, useDraft, useSubmit } from "../../components/form.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Button } from "../../components/ui/button.tsx";
import { keys } from "../../lib/queries.ts";
import type { Workspace, WorkspaceSummary } from "../../lib/types.ts";
import { agenciesQuery, startAgency } from "./agencies-api.ts";

/** Whether a workspace's settings have an Agency section: it is a client, or it could start one. */
export function hasAgencySection(summary: WorkspaceSummary | undefined): boolean {
  return summary !== undefined && (summary.agency !== null || summary.plan === "agency");
}

/**
 * Settings → Agency: the agency the workspace is a client of (with its home, for its staff), or, for
 * the owner of a workspace on the Agency plan, "Start an agency" with this workspace as its first client.
 */
export function WorkspaceAgencyCard({ workspace, summary }: { workspace: Workspace; summary: WorkspaceSummary }) {
  const agencies = useQuery(agenciesQuery);
  const agency = summary.agency;
  const staff = agency !== null && (agencies.data?.data.some((a) => a.id === agency.id) ?? false);
  return (
    <SectionCard
      id="agency"
      titleId="workspace-agency-title"
      title="Agency"
      description={
        agency
          ? `This workspace is a client of ${agency.name}: its staff work in it by their agency role, it draws on the agency's credit pool, and its reports carry the agency's branding unless it sets its own.`
          : "An agency runs client workspaces from one place: its staff work in every client, the clients share one monthly credit pool (each with an optional cap), pitches analyse prospects, and the agency's branding is on every client's reports."
      }
      contentClassName="grid gap-4"
    >
      {agency ? (
        staff && (
          <div>
            <Button asChild variant="outline">
              <Link to="/agency/$agencyId" params={{ agencyId: agency.id }}>
                <BuildingIcon aria-hidden="true" />
                Agency home of {agency.name}
              </Link>
            </Button>
          </div>
        )
      ) : workspace.role === "owner" ? (
        <StartAgencyForm workspace={workspace} />
      ) : (
        <p className="text-sm text-muted-foreground">The workspace's owner can start an agency from here.</p>
      )}
    </SectionCard>
  );
}

function StartAgencyForm({ workspace }: { workspace: Workspace }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { run, pending, errors, formError } = useSubmit();
  const { draft, text } = useDraft({ name: "" }, errors);

  const submit = () =>
    run(
      async () => {
        const agency = await startAgency(draft.name.trim(), workspace.id);
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: keys.agencies }),
          queryClient.invalidateQueries({ queryKey: keys.me }),
        ]);
        void navigate({ to: "/agency/$agencyId", params: { agencyId: agency.id } });
      },
      {
        check: () => ({ name: draft.name.trim() === "" ? "Name the agency, as your staff know it." : undefined }),
        fields: ["name"],
      },
    );

  return (
    <Form onSubmit={submit} className="grid gap-3">
      <FormError message={formError} />
      <p className="text-sm">
        You become the agency's admin, and <strong className="font-medium">{workspace.name}</strong> its first client.
        Add more clients and your staff from the agency's home.
      </p>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <Field
          label="Agency name"
          name="agency-name"
          autoComplete="organization"
          className="flex-1"
          {...text("name")}
        />
        <PendingButton type="submit" pending={pending} className="sm:mt-[1.375rem]">
          <BuildingIcon aria-hidden="true" />
          Start an agency
        </PendingButton>
      </div>
    </Form>
  );
}
