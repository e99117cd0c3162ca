import { useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { GlobeIcon, PlusIcon, XIcon } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { FieldError, Form } from "../../components/form.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { SelectField } from "../../components/select-field.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { countryLabel, countryOptions } from "../../lib/countries.ts";
import { keys } from "../../lib/queries.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { updateProject } from "../brands/brands-api.ts";
import { MAX_COUNTRIES } from "./audiences-api.ts";

/**
 * The countries the brand is tracked in: each prompt is asked as from each of them. With none
 * chosen, the brand's own country (its settings) is the one; choosing more starts from it.
 */
export function CountriesCard() {
  const { workspaceId, project, canEdit } = useBrand();
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const chosen = project.countries ?? [];
  // No countries chosen: the brand's own country is asked from, and adding one keeps it.
  const implicit = chosen.length === 0 && project.country !== null;
  const tracked = chosen.length > 0 ? chosen : project.country ? [project.country] : [];

  async function save(next: string[], done: string) {
    setBusy(true);
    setError(undefined);
    try {
      const saved = await updateProject(workspaceId, project.id, { countries: next });
      queryClient.setQueryData(keys.workspacePart(workspaceId, "projects", project.id), saved);
      toast.success(done);
      return true;
    } catch (failure) {
      const issue =
        failure instanceof ApiError ? failure.details.find((d) => d.field?.startsWith("countries")) : undefined;
      const code = next[Number(/\[(\d+)\]/.exec(issue?.field ?? "")?.[1])];
      setError(issue ? `${code ? `${countryLabel(code)}: ` : ""}${issue.issue}.` : errorMessage(failure));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function add() {
    if (choice === "") return setError("Choose a country first.");
    if (tracked.length >= MAX_COUNTRIES) return setError(`A brand is tracked in at most ${MAX_COUNTRIES} countries.`);
    if (await save([...tracked, choice], `${countryLabel(choice)} is added: the next analysis asks from it too.`))
      setChoice("");
  }

  const remove = (code: string) =>
    save(
      tracked.filter((c) => c !== code),
      `${countryLabel(code)} is removed: analyses no longer ask from it.`,
    );

  return (
    <SectionCard
      titleId="countries-title"
      title="Countries"
      description={
        <>
          Each analysis asks every prompt as from each country here
          {tracked.length > 1 ? `: ${tracked.length} countries, ${tracked.length} times the answers (and credits)` : ""}
          . Engines that cannot be placed in a country (their API takes no location) are not asked there, and their
          answer says why.
        </>
      }
      contentClassName="grid gap-4"
    >
      {tracked.length === 0 ? (
        <p className="flex items-start gap-2 text-sm text-muted-foreground">
          <GlobeIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            No country yet: the engines are asked without a location.{" "}
            {canEdit ? "Add the markets you sell in." : "A member of this workspace adds them."}
          </span>
        </p>
      ) : (
        <ul className="flex flex-wrap gap-2" aria-label="Countries the brand is tracked in">
          {tracked.map((code) => (
            <li key={code}>
              <Badge variant="outline" className="gap-1 py-1 pr-1 pl-2 text-sm">
                {countryLabel(code)}
                {implicit ? (
                  <span className="text-xs font-normal text-muted-foreground">the brand's country</span>
                ) : (
                  canEdit && (
                    <button
                      type="button"
                      disabled={busy}
                      onClick={() => void remove(code)}
                      className="rounded-sm p-0.5 text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none disabled:opacity-50"
                      aria-label={`Remove ${countryLabel(code)}`}
                    >
                      <XIcon className="size-3.5" aria-hidden="true" />
                    </button>
                  )
                )}
              </Badge>
            </li>
          ))}
        </ul>
      )}
      {implicit && (
        <p className="text-xs text-muted-foreground">
          {countryLabel(project.country ?? "")} is the brand's own country (
          <Link
            to="/w/$workspaceId/brands/$brandId/edit"
            params={{ workspaceId, brandId: project.id }}
            className="text-primary underline underline-offset-4"
          >
            Edit brand
          </Link>
          ); countries you add are asked from besides it.
        </p>
      )}
      {canEdit && tracked.length < MAX_COUNTRIES && (
        <Form onSubmit={add} className="flex flex-wrap items-end gap-2">
          <SelectField<string>
            label="Add a country"
            className="min-w-0 flex-1 basis-52"
            placeholder="Choose a country"
            contentClassName="max-h-72"
            value={choice}
            onChange={(code) => {
              setChoice(code);
              setError(undefined);
            }}
            options={countryOptions(tracked)}
          />
          <Button type="submit" variant="outline" disabled={busy || choice === ""}>
            <PlusIcon aria-hidden="true" />
            Add country
          </Button>
          <div aria-live="polite" className="basis-full">
            <FieldError message={error} />
          </div>
        </Form>
      )}
      {canEdit && tracked.length >= MAX_COUNTRIES && (
        <p className="text-sm text-muted-foreground">
          A brand is tracked in at most {MAX_COUNTRIES} countries: remove one to add another.
        </p>
      )}
    </SectionCard>
  );
}
