import { type ReactNode, useState } from "react";
import { EnginesField } from "../../components/engines-field.tsx";
import { Field, Form, FormError, PendingButton, useDraft, useSubmit } from "../../components/form.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { TextareaField } from "../../components/textarea-field.tsx";
import { Button } from "../../components/ui/button.tsx";
import { plural } from "../../lib/format.ts";
import { type BrandDraft, checkDraft, serverErrors, splitPrompts } from "./brand-draft.ts";
import { CompetitorsField } from "./competitors-field.tsx";
import { FactsField } from "./facts-field.tsx";

const regionNames = safeDisplayNames("region");
const languageNames = safeDisplayNames("language");

function safeDisplayNames(type: "region" | "language"): Intl.DisplayNames | undefined {
  try {
    return new Intl.DisplayNames(undefined, { type });
  } catch {
    return undefined;
  }
}

/** "US" → "United States", when the browser knows it. */
function displayName(names: Intl.DisplayNames | undefined, code: string): string | undefined {
  try {
    const name = code ? names?.of(code) : undefined;
    return name && name !== code ? name : undefined;
  } catch {
    return undefined;
  }
}

/** The brand's names and websites: the draft's key, the API's field (where its issues land), the input. */
const IDENTITY = [
  { key: "name", field: "name", label: "Brand name", autoComplete: "organization", placeholder: "e.g. Acme CRM" },
  {
    key: "primaryDomain",
    field: "primary_domain",
    label: "Primary domain",
    inputMode: "url",
    placeholder: "e.g. acme.com",
    hint: "The brand's main website; a full address works too.",
  },
  {
    key: "category",
    field: "category",
    label: "What the brand sells",
    placeholder: "e.g. CRM for small agencies",
    hint: "As a buyer would say it, without the brand's name. Prompt suggestions start from it.",
    maxLength: 200,
  },
  {
    key: "otherDomains",
    field: "other_domains",
    label: "Other domains",
    placeholder: "e.g. acme.io, acme.co.uk",
    hint: "Separated by commas. Citations of any of them count as the brand's.",
  },
  {
    key: "aliases",
    field: "aliases",
    label: "Aliases",
    placeholder: "e.g. Acme, AcmeCRM",
    hint: "Other names the brand goes by (products, abbreviations), separated by commas.",
  },
] as const;

/** Every setting of a brand, for adding one or editing it; the server's field issues land next to their field. */
export function BrandForm({
  initial,
  engines,
  submitLabel,
  cancel,
  onSubmit,
}: {
  initial: BrandDraft;
  /** The engines of the workspace's plan. */
  engines: readonly string[];
  submitLabel: string;
  /** The link back, e.g. to the brand or the brands list. */
  cancel: ReactNode;
  /** Saves; throws the API's error, which the form places on its fields. */
  onSubmit: (draft: BrandDraft) => Promise<void>;
}) {
  const { run, pending, errors, formError } = useSubmit();
  const { draft, set, text } = useDraft(initial, errors);
  // Expert settings stay folded away unless the brand already has some, or one of them has an issue.
  const [advanced, setAdvanced] = useState(
    initial.caseSensitiveAliases.trim() !== "" ||
      initial.exclusions.trim() !== "" ||
      initial.citationCategories.trim() !== "" ||
      initial.competitors.some((c) => c.caseSensitiveAliases.trim() !== ""),
  );
  const advancedIssue = Object.keys(errors).some((key) =>
    /^(case_sensitive_aliases|exclusions|citation_categories|competitors\.\d+\.case_sensitive_aliases)/.test(key),
  );
  const showAdvanced = advanced || advancedIssue;

  const submit = () =>
    run(() => onSubmit(draft), {
      check: () => checkDraft(draft),
      place: (error) => serverErrors(error, draft),
      summary: "Some fields need your attention.",
    });

  const promptCount = splitPrompts(draft.prompts).length;
  const country = displayName(regionNames, draft.country.trim().toUpperCase());
  const language = displayName(languageNames, draft.language.trim());

  return (
    <Form onSubmit={submit} className="grid gap-6" aria-label={submitLabel}>
      <FormError message={formError} />
      <SectionCard
        titleId="brand-identity"
        title="Brand"
        description="How the brand is named in answers, and the websites that are its own."
        contentClassName="grid gap-4"
      >
        <div className="grid gap-4 md:grid-cols-2">
          {IDENTITY.map(({ key, field, ...input }) => (
            <Field key={key} autoComplete="off" {...input} {...text(key, field)} />
          ))}
        </div>
        <details
          className="group rounded-lg border"
          open={showAdvanced}
          onToggle={(event) => setAdvanced(event.currentTarget.open)}
        >
          <summary className="cursor-pointer select-none px-3 py-2 text-sm font-medium">
            Advanced
            <span className="ml-2 font-normal text-muted-foreground">
              Case-sensitive names, phrases that are not the brand, kinds of cited sites
            </span>
          </summary>
          <div className="grid gap-4 border-t p-3">
            <Field
              label="Case-sensitive aliases"
              autoComplete="off"
              placeholder="e.g. SAP, HEY"
              hint="Names that count only with exactly this capitalisation, for names that are also ordinary words. Each competitor gets this field too."
              {...text("caseSensitiveAliases", "case_sensitive_aliases")}
            />
            <TextareaField
              label="Phrases that are not the brand, one per line"
              rows={3}
              placeholder={"e.g. target audience\ne.g. Delta variant"}
              hint="A name inside one of these phrases is not counted as a mention, the brand's or a competitor's."
              {...text("exclusions")}
            />
            <TextareaField
              label="Kinds of cited sites, one per line"
              rows={3}
              placeholder={"e.g. g2.com: review\ne.g. community.acme-fans.org: social"}
              hint="Overrides the built-in list: domain: category, the category one of social, reference, news, review or other. The brand's and competitors' own domains are always theirs."
              {...text("citationCategories", "citation_categories")}
            />
          </div>
        </details>
      </SectionCard>
      <SectionCard
        titleId="brand-competitors"
        title="Competitors"
        description="Brands measured against this one: share of voice, the leaderboard and alerts compare with them."
        contentClassName="grid gap-4"
      >
        <CompetitorsField
          rows={draft.competitors}
          onChange={(rows) => set("competitors", rows)}
          errors={errors}
          advanced={showAdvanced}
        />
      </SectionCard>
      <SectionCard
        titleId="brand-prompts"
        title="Prompts"
        description="The questions asked of the engines, as a customer would ask them. They never name the brand."
        contentClassName="grid gap-4"
      >
        <TextareaField
          label="Prompts, one per line"
          rows={8}
          placeholder={"e.g. best CRM for a small agency\ne.g. CRM with a good Slack integration"}
          hint={`Paste a whole list at once. ${plural(promptCount, "prompt")} (at most 200). Tag them, switch them off or get suggestions on the brand's Prompts page.`}
          {...text("prompts")}
        />
      </SectionCard>
      <SectionCard
        titleId="brand-facts"
        title="Fact sheet"
        description="What is true about the brand. Answers that state otherwise show up as opportunities to correct. Leave out what you do not want checked."
        contentClassName="grid gap-4"
      >
        <FactsField value={draft.facts} onChange={(facts) => set("facts", facts)} errors={errors} />
      </SectionCard>
      <SectionCard
        titleId="brand-market"
        title="Engines and market"
        description="Where analyses ask by default; each run can still choose."
        contentClassName="grid gap-4"
      >
        <EnginesField
          engines={engines}
          value={draft.engines}
          onChange={(value) => set("engines", value)}
          error={errors.engines}
          description="Where analyses of this brand ask by default. The offline sandbox always answers; the others once connected in Settings → Engines."
        />
        <div className="grid gap-4 md:grid-cols-2">
          <Field
            label="Country"
            autoComplete="off"
            maxLength={2}
            placeholder="e.g. US"
            className="[&_input]:uppercase [&_input::placeholder]:normal-case"
            hint={
              country
                ? `${country}. ISO 3166-1 two-letter code; leave empty for none.`
                : "ISO 3166-1 two-letter code, e.g. US, GB, DE; leave empty for none."
            }
            {...text("country")}
          />
          <Field
            label="Language"
            autoComplete="off"
            placeholder="e.g. en"
            hint={
              language
                ? `${language}. BCP 47 tag; leave empty for none.`
                : "BCP 47 tag, e.g. en, fr, pt-BR; leave empty for none."
            }
            {...text("language")}
          />
        </div>
      </SectionCard>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button asChild variant="outline">
          {cancel}
        </Button>
        <PendingButton type="submit" pending={pending}>
          {submitLabel}
        </PendingButton>
      </div>
    </Form>
  );
}
