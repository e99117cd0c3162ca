import type { BrandSuggestion } from "@sightline/sdk";
import { useState } from "react";
import { CheckboxField } from "../../components/checkbox-field.tsx";
import { Field, Form, FormError, PendingButton } from "../../components/form.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { ApiError, errorMessage, v1Call } from "../../lib/api.ts";
import { engineName } from "../../lib/format.ts";
import { type BrandDraft, emptyDraft, newCompetitor } from "./brand-draft.ts";

type Source = { source: string; detail: string };

/** Where a suggestion came from, as the person reading it needs to know: a page, the sandbox, an engine, the answers. */
function SourceNote({ source, detail }: Source) {
  if (/^https?:\/\//.test(source)) {
    let label = source;
    try {
      const url = new URL(source);
      label = `${url.host}${url.pathname === "/" ? "" : url.pathname}`;
    } catch {
      // Shown as it is.
    }
    return (
      <span className="text-xs text-muted-foreground">
        from{" "}
        <a href={source} target="_blank" rel="noreferrer noopener" className="underline underline-offset-2">
          {label}
        </a>{" "}
        ({detail})
      </span>
    );
  }
  if (source === "sandbox") {
    return (
      <span className="text-xs text-muted-foreground">
        <Badge variant="outline" className="mr-1 text-[11px]">
          Simulated
        </Badge>
        simulated by the sandbox, not a real engine's answer
      </span>
    );
  }
  if (source === "answers") return <span className="text-xs text-muted-foreground">from your answers: {detail}</span>;
  return <span className="text-xs text-muted-foreground">suggested by {engineName(source)}</span>;
}

/** The first step of adding a brand: its website, read for suggestions; or the form by hand. */
export function WebsiteStep({
  workspaceId,
  onSuggested,
  onManual,
}: {
  workspaceId: string;
  onSuggested: (suggestion: BrandSuggestion, website: string) => void;
  /** Goes to the form by hand, with why when the site could not be read. */
  onManual: (website: string, message: string | null) => void;
}) {
  const [website, setWebsite] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | undefined>();

  const suggest = async () => {
    setError(undefined);
    setFormError(undefined);
    if (website.trim() === "") {
      setError("Type the brand's website, e.g. acme.com, or fill in the brand by hand.");
      return;
    }
    setPending(true);
    try {
      const suggestion = await v1Call(workspaceId, "suggestBrand", { body: { website: website.trim() } });
      onSuggested(suggestion, website.trim());
    } catch (failure) {
      const issue = failure instanceof ApiError ? failure.details.find((d) => d.field === "website") : undefined;
      if (issue?.issue.startsWith("not a website address")) {
        setError("That is not a website address; type it as acme.com.");
      } else if (issue !== undefined) {
        const reason = issue.issue.replace(/; fill in the brand by hand.*$/, "");
        onManual(website.trim(), `We could not read ${website.trim()}: ${reason}.`);
      } else {
        setFormError(errorMessage(failure));
      }
    } finally {
      setPending(false);
    }
  };

  return (
    <Form onSubmit={suggest} className="grid gap-4" aria-label="Start from the brand's website">
      <SectionCard
        titleId="brand-website"
        title="Start from the brand's website"
        description="Sightline reads a few of its public pages (home, about, pricing, product) and suggests the rest: its names, competitors, a fact sheet and prompts. You confirm or edit every suggestion."
        contentClassName="grid gap-4"
      >
        <FormError message={formError} />
        <Field
          label="Website address"
          autoComplete="url"
          inputMode="url"
          placeholder="e.g. acme.com"
          value={website}
          onChange={(event) => setWebsite(event.target.value)}
          error={error}
          hint="Costs one credit. Nothing is stored until you add the brand. Competitors and prompts are simulated by the offline sandbox."
        />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="outline" onClick={() => onManual(website.trim(), null)}>
            Skip — fill in by hand
          </Button>
          <PendingButton type="submit" pending={pending}>
            {pending ? "Reading the website…" : "Suggest"}
          </PendingButton>
        </div>
      </SectionCard>
    </Form>
  );
}

const STAGES = [
  { stage: "awareness", title: "Awareness" },
  { stage: "consideration", title: "Consideration" },
  { stage: "decision", title: "Decision" },
  { stage: null, title: "Other" },
] as const;

function Row({ label, value, source }: { label: string; value: string; source: Source }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[10rem_minmax(0,1fr)] sm:gap-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="grid gap-0.5 text-sm">
        <span className="font-medium break-words">{value}</span>
        <SourceNote {...source} />
      </dd>
    </div>
  );
}

function priceText(price: { amount: number; currency: string; period?: string }): string {
  return `${price.amount} ${price.currency}${price.period ? ` a ${price.period}` : ""}`;
}

/** What the website suggested, each with its source; competitors and prompts are ticked to keep them. */
export function SuggestionReview({
  suggestion,
  engines,
  onAccept,
  onManual,
}: {
  suggestion: BrandSuggestion;
  engines: readonly string[];
  onAccept: (draft: BrandDraft) => void;
  onManual: () => void;
}) {
  // Names the sandbox made up start unticked: left untracked, its answers show them among the
  // suggested competitors, so discovery works before any engine is connected.
  const [competitors, setCompetitors] = useState(() => suggestion.competitors.map((c) => c.source !== "sandbox"));
  const [prompts, setPrompts] = useState(() => suggestion.prompts.map(() => true));
  const { facts } = suggestion;
  const kept = prompts.filter(Boolean).length;
  // Said once when every prompt comes from the same place (the sandbox, or one engine).
  const first = suggestion.prompts[0];
  const oneSource =
    first !== undefined && suggestion.prompts.every((p) => p.source === first.source && p.detail === first.detail)
      ? { source: first.source, detail: first.detail }
      : null;

  const accept = () => {
    const draft = emptyDraft(engines);
    const [primary, ...others] = suggestion.domains;
    const chosen = suggestion.competitors.filter((_, i) => competitors[i]);
    onAccept({
      ...draft,
      name: suggestion.name?.value ?? "",
      primaryDomain: primary?.value ?? "",
      otherDomains: others.map((d) => d.value).join(", "),
      aliases: suggestion.aliases.map((a) => a.value).join(", "),
      category: suggestion.category?.value ?? "",
      language: suggestion.language?.value ?? "",
      country: suggestion.country?.value ?? "",
      competitors: chosen.length === 0 ? [newCompetitor()] : chosen.map((c) => newCompetitor({ name: c.value })),
      prompts: suggestion.prompts
        .filter((_, i) => prompts[i])
        .map((p) => p.value)
        .join("\n"),
      facts: {
        ...draft.facts,
        foundedYear: facts.founded_year ? String(facts.founded_year.value) : "",
        headquarters: facts.headquarters?.value ?? "",
        priceAmount: facts.starting_price ? String(facts.starting_price.value.amount) : "",
        priceCurrency: facts.starting_price?.value.currency ?? draft.facts.priceCurrency,
        pricePeriod: facts.starting_price ? (facts.starting_price.value.period ?? "") : draft.facts.pricePeriod,
        freePlan: facts.free_plan === undefined ? "" : facts.free_plan.value ? "yes" : "no",
        features: (facts.features ?? []).map((f) => f.value).join("\n"),
      },
    });
  };

  const identity: { label: string; value: string; source: Source }[] = [
    ...(suggestion.name ? [{ label: "Name", value: suggestion.name.value, source: suggestion.name }] : []),
    ...suggestion.aliases.map((a) => ({ label: "Alias", value: a.value, source: a })),
    ...suggestion.domains.map((d, i) => ({
      label: i === 0 ? "Primary domain" : "Other domain",
      value: d.value,
      source: d,
    })),
    ...(suggestion.category
      ? [{ label: "What it sells", value: suggestion.category.value, source: suggestion.category }]
      : []),
    ...(suggestion.language
      ? [{ label: "Language", value: suggestion.language.value, source: suggestion.language }]
      : []),
    ...(suggestion.country ? [{ label: "Country", value: suggestion.country.value, source: suggestion.country }] : []),
  ];
  const factRows: { label: string; value: string; source: Source }[] = [
    ...(facts.founded_year
      ? [{ label: "Founded", value: String(facts.founded_year.value), source: facts.founded_year }]
      : []),
    ...(facts.headquarters
      ? [{ label: "Headquarters", value: facts.headquarters.value, source: facts.headquarters }]
      : []),
    ...(facts.starting_price
      ? [{ label: "Starting price", value: priceText(facts.starting_price.value), source: facts.starting_price }]
      : []),
    ...(facts.free_plan
      ? [{ label: "Free plan", value: facts.free_plan.value ? "Yes" : "No", source: facts.free_plan }]
      : []),
    ...(facts.features ?? []).map((f) => ({ label: "Feature", value: f.value, source: f })),
  ];

  return (
    <section className="grid gap-6" aria-label="Suggestions from the website">
      {suggestion.notices.length > 0 && (
        <ul className="grid gap-1 rounded-lg border border-warning/30 bg-warning/10 p-3 text-sm">
          {suggestion.notices.map((notice) => (
            <li key={notice}>{notice}</li>
          ))}
        </ul>
      )}
      <SectionCard
        titleId="suggested-brand"
        title="The brand"
        description={`Read from ${suggestion.pages.filter((p) => p.read).length} pages of its website. You can change any of it on the next step.`}
        contentClassName="grid gap-3"
      >
        <dl className="grid gap-3">
          {identity.map((row) => (
            <Row key={`${row.label}-${row.value}`} {...row} />
          ))}
        </dl>
      </SectionCard>
      {factRows.length > 0 && (
        <SectionCard
          titleId="suggested-facts"
          title="Fact sheet"
          description="What the pages state; answers that say otherwise become opportunities to correct."
          contentClassName="grid gap-3"
        >
          <dl className="grid gap-3">
            {factRows.map((row) => (
              <Row key={`${row.label}-${row.value}`} {...row} />
            ))}
          </dl>
        </SectionCard>
      )}
      <SectionCard
        titleId="suggested-competitors"
        title="Competitors"
        description="Tick the ones to measure against. Names the sandbox made up start unticked: its answers will show them under Competitors → suggestions."
        contentClassName="grid gap-3"
      >
        {suggestion.competitors.length === 0 && (
          <p className="text-sm text-muted-foreground">None found; add them on the next step.</p>
        )}
        <ul className="grid gap-3 sm:grid-cols-2">
          {suggestion.competitors.map((competitor, i) => (
            <li key={competitor.value} className="grid gap-0.5">
              <CheckboxField
                label={competitor.value}
                checked={competitors[i] ?? false}
                onCheckedChange={(checked) => setCompetitors((all) => all.map((v, j) => (j === i ? checked : v)))}
              />
              <span className="pl-7">
                <SourceNote {...competitor} />
              </span>
            </li>
          ))}
        </ul>
      </SectionCard>
      <SectionCard
        titleId="suggested-prompts"
        title="Prompts"
        description={`Questions buyers ask, across the funnel. ${kept} of ${suggestion.prompts.length} kept.`}
        contentClassName="grid gap-4"
      >
        {suggestion.prompts.length === 0 && (
          <p className="text-sm text-muted-foreground">None suggested; add them on the next step.</p>
        )}
        {oneSource !== null && <SourceNote {...oneSource} />}
        {STAGES.map(({ stage, title }) => {
          const items = suggestion.prompts.map((p, i) => ({ p, i })).filter(({ p }) => p.stage === stage);
          if (items.length === 0) return null;
          return (
            <fieldset key={title} className="grid gap-2">
              <legend className="mb-1 text-sm font-medium">{title}</legend>
              {items.map(({ p, i }) => (
                <div key={p.value} className="grid gap-0.5">
                  <CheckboxField
                    label={p.value}
                    checked={prompts[i] ?? false}
                    onCheckedChange={(checked) => setPrompts((all) => all.map((v, j) => (j === i ? checked : v)))}
                  />
                  {oneSource === null && (
                    <span className="pl-7">
                      <SourceNote {...p} />
                    </span>
                  )}
                </div>
              ))}
            </fieldset>
          );
        })}
      </SectionCard>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onManual}>
          Fill in by hand instead
        </Button>
        <Button type="button" onClick={accept}>
          Use these suggestions
        </Button>
      </div>
    </section>
  );
}
