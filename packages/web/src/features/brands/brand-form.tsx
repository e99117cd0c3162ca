import { type ReactNode, useState } from "react";
import { EnginesField } from "../../components/engines-field.tsx";
import { Field, Form, FormError } from "../../components/form.tsx";
import { Spinner } from "../../components/page-states.tsx";
import { TextareaField } from "../../components/textarea-field.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
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

function Section({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card aria-labelledby={id}>
      <CardHeader>
        <div>
          <CardTitle id={id}>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">{children}</CardContent>
    </Card>
  );
}

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
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [pending, setPending] = useState(false);
  const set = <K extends keyof BrandDraft>(key: K, value: BrandDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  async function submit() {
    const found = checkDraft(draft);
    setErrors(found);
    setFormError(Object.keys(found).length > 0 ? "Some fields need your attention." : undefined);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    try {
      await onSubmit(draft);
    } catch (error) {
      const placed = serverErrors(error, draft);
      setErrors(placed.fields);
      setFormError(
        placed.message ?? (Object.keys(placed.fields).length > 0 ? "Some fields need your attention." : undefined),
      );
    } finally {
      setPending(false);
    }
  }

  const promptCount = splitPrompts(draft.prompts).length;
  const country = displayName(regionNames, draft.country.trim().toUpperCase());
  const language = displayName(languageNames, draft.language.trim());

  return (
    <Form onSubmit={submit} className="grid gap-6" aria-label={submitLabel}>
      <FormError message={formError} />
      <Section
        id="brand-identity"
        title="Brand"
        description="How the brand is named in answers, and the websites that are its own."
      >
        <div className="grid gap-4 md:grid-cols-2">
          <Field
            label="Brand name"
            autoComplete="organization"
            placeholder="e.g. Acme CRM"
            value={draft.name}
            onChange={(event) => set("name", event.target.value)}
            error={errors.name}
          />
          <Field
            label="Primary domain"
            autoComplete="off"
            inputMode="url"
            placeholder="acme.com"
            hint="The brand's main website; a full address works too."
            value={draft.primaryDomain}
            onChange={(event) => set("primaryDomain", event.target.value)}
            error={errors.primary_domain}
          />
          <Field
            label="What the brand sells"
            autoComplete="off"
            placeholder="e.g. CRM for small agencies"
            hint="As a buyer would say it, without the brand's name. Prompt suggestions start from it."
            maxLength={200}
            value={draft.category}
            onChange={(event) => set("category", event.target.value)}
            error={errors.category}
          />
          <Field
            label="Other domains"
            autoComplete="off"
            placeholder="acme.io, acme.co.uk"
            hint="Separated by commas. Citations of any of them count as the brand's."
            value={draft.otherDomains}
            onChange={(event) => set("otherDomains", event.target.value)}
            error={errors.other_domains}
          />
          <Field
            label="Aliases"
            autoComplete="off"
            placeholder="Acme, AcmeCRM"
            hint="Other names the brand goes by (products, abbreviations), separated by commas."
            value={draft.aliases}
            onChange={(event) => set("aliases", event.target.value)}
            error={errors.aliases}
          />
          <Field
            label="Case-sensitive aliases"
            autoComplete="off"
            placeholder="SAP, HEY"
            hint="Names that count only with exactly this capitalisation, for names that are also ordinary words."
            value={draft.caseSensitiveAliases}
            onChange={(event) => set("caseSensitiveAliases", event.target.value)}
            error={errors.case_sensitive_aliases}
          />
        </div>
        <TextareaField
          label="Phrases that are not the brand, one per line"
          rows={3}
          placeholder={"target audience\nDelta variant"}
          hint="A name inside one of these phrases is not counted as a mention, the brand's or a competitor's."
          value={draft.exclusions}
          onChange={(event) => set("exclusions", event.target.value)}
          error={errors.exclusions}
        />
        <TextareaField
          label="Kinds of cited sites, one per line"
          rows={3}
          placeholder={"g2.com: review\ncommunity.acme-fans.org: social"}
          hint="Overrides the built-in list: domain: category, the category one of social, reference, news, review or other. The brand's and competitors' own domains are always theirs."
          value={draft.citationCategories}
          onChange={(event) => set("citationCategories", event.target.value)}
          error={errors.citation_categories}
        />
      </Section>
      <Section
        id="brand-competitors"
        title="Competitors"
        description="Brands measured against this one: share of voice, the leaderboard and alerts compare with them."
      >
        <CompetitorsField rows={draft.competitors} onChange={(rows) => set("competitors", rows)} errors={errors} />
      </Section>
      <Section
        id="brand-prompts"
        title="Prompts"
        description="The questions asked of the engines, as a customer would ask them. They never name the brand."
      >
        <TextareaField
          label="Prompts, one per line"
          rows={8}
          placeholder={"best CRM for a small agency\nCRM with a good Slack integration"}
          hint={`Paste a whole list at once. ${plural(promptCount, "prompt")} (at most 200). Tag them, switch them off or get suggestions on the brand's Prompts page.`}
          value={draft.prompts}
          onChange={(event) => set("prompts", event.target.value)}
          error={errors.prompts}
        />
      </Section>
      <Section
        id="brand-facts"
        title="Fact sheet"
        description="What is true about the brand. Answers that state otherwise show up as opportunities to correct. Leave out what you do not want checked."
      >
        <FactsField value={draft.facts} onChange={(facts) => set("facts", facts)} errors={errors} />
      </Section>
      <Section
        id="brand-market"
        title="Engines and market"
        description="Where analyses ask by default; each run can still choose."
      >
        <EnginesField
          engines={engines}
          value={draft.engines}
          onChange={(value) => set("engines", value)}
          error={errors.engines}
          description="The engines of your plan. Engines other than the offline sandbox need their API key configured on the server."
        />
        <div className="grid gap-4 md:grid-cols-2">
          <Field
            label="Country"
            autoComplete="off"
            maxLength={2}
            placeholder="US"
            className="[&_input]:uppercase"
            hint={
              country
                ? `${country}. ISO 3166-1 two-letter code; leave empty for none.`
                : "ISO 3166-1 two-letter code, e.g. US, GB, DE; leave empty for none."
            }
            value={draft.country}
            onChange={(event) => set("country", event.target.value)}
            error={errors.country}
          />
          <Field
            label="Language"
            autoComplete="off"
            placeholder="en"
            hint={
              language
                ? `${language}. BCP 47 tag; leave empty for none.`
                : "BCP 47 tag, e.g. en, fr, pt-BR; leave empty for none."
            }
            value={draft.language}
            onChange={(event) => set("language", event.target.value)}
            error={errors.language}
          />
        </div>
      </Section>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button asChild variant="outline">
          {cancel}
        </Button>
        <Button type="submit" disabled={pending}>
          {pending && <Spinner />}
          {submitLabel}
        </Button>
      </div>
    </Form>
  );
}
