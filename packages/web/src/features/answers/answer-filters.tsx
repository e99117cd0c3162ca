import { useNavigate } from "@tanstack/react-router";
import { useId } from "react";
import { Label } from "../../components/ui/label.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/select.tsx";
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
  const id = useId();
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
      <div className="grid min-w-0 gap-1.5">
        <Label htmlFor={`${id}-prompt`}>Prompt</Label>
        <Select value={prompt ?? ANY} onValueChange={(value) => go({ prompt: value === ANY ? undefined : value })}>
          <SelectTrigger id={`${id}-prompt`} className="min-w-0">
            <SelectValue />
          </SelectTrigger>
          <SelectContent className="max-w-[calc(100vw-2rem)]">
            <SelectItem value={ANY}>All prompts</SelectItem>
            {prompts.map((p) => (
              <SelectItem key={p} value={p}>
                {p}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-mentioned`}>Brand named</Label>
        <Select
          value={mentioned ?? ANY}
          onValueChange={(value) => go({ mentioned: value === ANY ? undefined : value })}
        >
          <SelectTrigger id={`${id}-mentioned`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ANY}>Named or not</SelectItem>
            <SelectItem value="yes">Naming {project.name}</SelectItem>
            <SelectItem value="no">Not naming {project.name}</SelectItem>
          </SelectContent>
        </Select>
      </div>
    </section>
  );
}
