import type { BrandSuggestion } from "@sightline/sdk";
import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { InfoIcon } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { RoleNote } from "../components/page-states.tsx";
import { type BrandDraft, bodyOf, emptyDraft } from "../features/brands/brand-draft.ts";
import { BrandForm } from "../features/brands/brand-form.tsx";
import { SuggestionReview, WebsiteStep } from "../features/brands/brand-suggestion.tsx";
import { createProject } from "../features/brands/brands-api.ts";
import { useWorkspace } from "../features/workspace/workspace-context.tsx";
import { keys } from "../lib/queries.ts";
import { atLeast } from "../lib/roles.ts";
import { useTitle } from "../lib/use-title.ts";

/** Where adding a brand is: its website first, then the suggestions, then the form (pre-filled, or by hand). */
type Step =
  | { kind: "website" }
  | { kind: "review"; suggestion: BrandSuggestion }
  | { kind: "form"; draft: BrandDraft; message: string | null; suggested: boolean };

export function BrandNewPage() {
  const workspace = useWorkspace();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>({ kind: "website" });
  useTitle(`Add a brand · ${workspace.name}`);

  const manual = (website: string, message: string | null) => {
    setStep({
      kind: "form",
      draft: { ...emptyDraft(workspace.engines), primaryDomain: website },
      message,
      suggested: false,
    });
    window.scrollTo({ top: 0 });
  };

  const cancel = (
    <Link to="/w/$workspaceId" params={{ workspaceId: workspace.id }}>
      Cancel
    </Link>
  );

  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Add a brand</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Sightline asks the engines your prompts and measures how this brand, and its competitors, appear in the
          answers.
        </p>
      </div>
      {!atLeast(workspace.role, "member") ? (
        <RoleNote>Viewers see every brand but cannot add one. Ask a member or an admin of {workspace.name}.</RoleNote>
      ) : step.kind === "website" ? (
        <WebsiteStep
          workspaceId={workspace.id}
          onSuggested={(suggestion) => {
            setStep({ kind: "review", suggestion });
            window.scrollTo({ top: 0 });
          }}
          onManual={manual}
        />
      ) : step.kind === "review" ? (
        <SuggestionReview
          suggestion={step.suggestion}
          engines={workspace.engines}
          onAccept={(draft) => {
            setStep({ kind: "form", draft, message: null, suggested: true });
            window.scrollTo({ top: 0 });
          }}
          onManual={() => manual(step.suggestion.domains[0]?.value ?? "", null)}
        />
      ) : (
        <>
          {(step.message !== null || step.suggested) && (
            <div role="status" className="flex items-start gap-2 rounded-md border bg-muted/40 px-3 py-2 text-sm">
              <InfoIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <span>
                {step.message !== null
                  ? `${step.message} Fill in the brand by hand below, or `
                  : "Filled in from the suggestions you kept. Check every field, then add the brand, or "}
                <button
                  type="button"
                  className="underline underline-offset-2"
                  onClick={() => setStep({ kind: "website" })}
                >
                  start again from a website
                </button>
                .
              </span>
            </div>
          )}
          <BrandForm
            initial={step.draft}
            engines={workspace.engines}
            submitLabel="Add brand"
            cancel={cancel}
            onSubmit={async (draft) => {
              const project = await createProject(workspace.id, bodyOf(draft));
              await queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspace.id, "projects") });
              toast.success(`${project.name} was added`);
              void navigate({
                to: "/w/$workspaceId/brands/$brandId",
                params: { workspaceId: workspace.id, brandId: project.id },
              });
            }}
          />
        </>
      )}
    </div>
  );
}
