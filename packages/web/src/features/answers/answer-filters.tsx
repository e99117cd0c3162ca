import { useNavigate } from "@tanstack/react-router";
import { SelectField } from "../../components/select-field.tsx";
import { useBrand } from "../brand-page/brand-context.tsx";

const ANY = "any";

/** The answers' own filters, next to the shared period and engine: which prompt, named or not. */
export function AnswerFilters({
  prompt,
  mentioned,
}: {
  prompt?: string | undefined;
  mentioned?: "yes" | "no" | undefined;
}) {
  const { project } = useBrand();
  const navigate = useNavigate();
  const prompts = prompt && !project.prompts.includes(prompt) ? [prompt, ...project.prompts] : project.prompts;
  function go(next: Record<string, string | undefined>) {
    void navigate({
      to: ".",
      search: (prev: Record<string, unknown>) => ({ ...prev, ...next }) as never,
      replace: true,
    });
  }
  return (
    <section aria-label="Answer filters" className="grid gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
      <SelectField
        label="Prompt"
        className="min-w-0"
        triggerClassName="min-w-0"
        contentClassName="max-w-[calc(100vw-2rem)]"
        value={prompt ?? ANY}
        onChange={(value) => go({ prompt: value === ANY ? undefined : value })}
        options={[{ value: ANY, label: "All prompts" }, ...prompts.map((p) => ({ value: p, label: p }))]}
      />
      <SelectField
        label="Brand named"
        value={mentioned ?? ANY}
        onChange={(value) => go({ mentioned: value === ANY ? undefined : value })}
        options={[
          { value: ANY, label: "Named or not" },
          { value: "yes", label: `Naming ${project.name}` },
          { value: "no", label: `Not naming ${project.name}` },
        ]}
      />
    </section>
  );
}
