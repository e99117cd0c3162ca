import { PlusIcon, Trash2Icon } from "lucide-react";
import { Field, FieldError } from "../../components/form.tsx";
import { Button } from "../../components/ui/button.tsx";
import { type CompetitorDraft, newCompetitor } from "./brand-draft.ts";

/** The competitors as rows of name, domains, aliases and case-sensitive aliases; rows are added and removed in place. */
export function CompetitorsField({
  rows,
  onChange,
  errors,
  advanced,
}: {
  rows: CompetitorDraft[];
  onChange: (rows: CompetitorDraft[]) => void;
  errors: Record<string, string>;
  /** Whether the expert field (case-sensitive aliases) is shown: the form's "Advanced" is open. */
  advanced: boolean;
}) {
  function update(index: number, patch: Partial<CompetitorDraft>) {
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  }
  return (
    <div className="grid gap-4">
      <FieldError message={errors.competitors} />
      {rows.length === 0 && <p className="text-sm text-muted-foreground">No competitors yet.</p>}
      <ol className="grid gap-4">
        {rows.map((row, index) => {
          const label = row.name.trim() ? `Competitor ${index + 1} (${row.name.trim()})` : `Competitor ${index + 1}`;
          return (
            <li key={row.key}>
              <fieldset className="grid gap-3 rounded-lg border p-3 sm:grid-cols-2 sm:items-start lg:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)_minmax(0,1.2fr)_minmax(0,1.2fr)_auto] sm:p-4">
                <legend className="px-1 text-sm font-medium">{`Competitor ${index + 1}`}</legend>
                <Field
                  label="Competitor name"
                  autoComplete="off"
                  placeholder="e.g. HubSpot"
                  value={row.name}
                  onChange={(event) => update(index, { name: event.target.value })}
                  error={errors[`competitors.${index}.name`]}
                />
                <Field
                  label="Competitor domains"
                  autoComplete="off"
                  placeholder="e.g. hubspot.com"
                  hint="Separated by commas"
                  value={row.domains}
                  onChange={(event) => update(index, { domains: event.target.value })}
                  error={errors[`competitors.${index}.domains`]}
                />
                <Field
                  label="Competitor aliases"
                  autoComplete="off"
                  placeholder="e.g. HubSpot CRM"
                  hint="Other names, separated by commas"
                  value={row.aliases}
                  onChange={(event) => update(index, { aliases: event.target.value })}
                  error={errors[`competitors.${index}.aliases`]}
                />
                {advanced && (
                  <Field
                    label="Case-sensitive aliases"
                    autoComplete="off"
                    placeholder="e.g. HUB"
                    hint="Counted only with this capitalisation"
                    value={row.caseSensitiveAliases}
                    onChange={(event) => update(index, { caseSensitiveAliases: event.target.value })}
                    error={errors[`competitors.${index}.case_sensitive_aliases`]}
                  />
                )}
                <Button
                  variant="ghost"
                  size="icon"
                  className="justify-self-end lg:mt-6"
                  aria-label={`Remove ${label}`}
                  onClick={() => onChange(rows.filter((_, i) => i !== index))}
                >
                  <Trash2Icon aria-hidden="true" />
                </Button>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <div>
        <Button variant="outline" size="sm" onClick={() => onChange([...rows, newCompetitor()])}>
          <PlusIcon aria-hidden="true" />
          Add competitor
        </Button>
      </div>
    </div>
  );
}
