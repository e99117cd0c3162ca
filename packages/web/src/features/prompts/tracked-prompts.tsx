import type { Project, ProjectUpdate } from "@sightline/sdk";
import { useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { PlusIcon, XIcon } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { FieldError } from "../../components/form.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Input } from "../../components/ui/input.tsx";
import { Switch } from "../../components/ui/switch.tsx";
import { errorMessage } from "../../lib/api.ts";
import { plural } from "../../lib/format.ts";
import { ownValue, withKey } from "../../lib/own-keys.ts";
import { cleanTag, isTag } from "../../lib/period.ts";
import { cn } from "../../lib/utils.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { allTags, saveProject } from "./prompts-api.ts";
import { SuggestPromptsDialog } from "./suggest-prompts-dialog.tsx";

const MAX_TAGS = 10;

/**
 * The brand's prompts, each with its tags (add, remove) and its switch (on: asked by analyses and
 * monitoring; off: not asked, its answers so far still count). Every change is saved at once.
 */
export function TrackedPrompts() {
  const { workspaceId, project, canEdit } = useBrand();
  const queryClient = useQueryClient();
  const datalistId = useId();
  const [busy, setBusy] = useState(false);
  const paused = new Set(project.paused_prompts ?? []);

  async function save(change: (current: Project) => ProjectUpdate, done: string): Promise<boolean> {
    setBusy(true);
    try {
      await saveProject(queryClient, workspaceId, project.id, change(project));
      toast.success(done);
      return true;
    } catch (error) {
      toast.error(errorMessage(error));
      return false;
    } finally {
      setBusy(false);
    }
  }

  const setTags = (prompt: string, tags: string[], done: string) =>
    save((current) => {
      return { prompt_tags: withKey(current.prompt_tags, prompt, tags.length === 0 ? undefined : tags) };
    }, done);

  const setAsked = (prompt: string, asked: boolean) =>
    save(
      (current) => {
        const others = (current.paused_prompts ?? []).filter((p) => p !== prompt);
        return { paused_prompts: asked ? others : [...others, prompt] };
      },
      asked ? `“${prompt}” is asked again.` : `“${prompt}” is switched off: analyses and monitoring skip it.`,
    );

  return (
    <SectionCard
      titleId="tracked-prompts-title"
      title="Tracked prompts"
      description={
        <>
          {plural(project.prompts.length, "prompt")}
          {paused.size > 0 && `, ${paused.size} switched off`}. Tag prompts by topic, persona or funnel stage (e.g.
          persona:cto, funnel:awareness), then choose a tag under “Prompt tag” to see only their figures. A prompt
          switched off is not asked by analyses and monitoring; its answers so far still count.
        </>
      }
      actions={canEdit && <SuggestPromptsDialog />}
    >
      {project.prompts.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No prompts yet.{" "}
          {canEdit && (
            <>
              Add some in{" "}
              <Link
                to="/w/$workspaceId/brands/$brandId/edit"
                params={{ workspaceId, brandId: project.id }}
                className="font-medium text-primary underline-offset-4 hover:underline"
              >
                Edit brand
              </Link>
              , or let an engine suggest questions buyers ask.
            </>
          )}
        </p>
      ) : (
        <ul className="divide-y" aria-label="Prompts with their tags">
          {project.prompts.map((prompt) => (
            <PromptRow
              key={prompt}
              prompt={prompt}
              tags={ownValue(project.prompt_tags, prompt) ?? []}
              asked={!paused.has(prompt)}
              canEdit={canEdit}
              busy={busy}
              datalistId={datalistId}
              onTags={setTags}
              onAsked={setAsked}
            />
          ))}
        </ul>
      )}
      <datalist id={datalistId}>
        {allTags(project).map((tag) => (
          <option key={tag} value={tag} />
        ))}
      </datalist>
    </SectionCard>
  );
}

function PromptRow({
  prompt,
  tags,
  asked,
  canEdit,
  busy,
  datalistId,
  onTags,
  onAsked,
}: {
  prompt: string;
  tags: string[];
  asked: boolean;
  canEdit: boolean;
  busy: boolean;
  datalistId: string;
  onTags: (prompt: string, tags: string[], done: string) => Promise<boolean>;
  onAsked: (prompt: string, asked: boolean) => Promise<boolean>;
}) {
  const id = useId();
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string>();

  async function add() {
    const tag = cleanTag(draft);
    if (!isTag(tag)) {
      setError("1 to 40 letters, digits, spaces, - _ or :, e.g. persona:cto.");
      return;
    }
    if (tags.includes(tag)) {
      setError("This prompt has this tag already.");
      return;
    }
    if (tags.length >= MAX_TAGS) {
      setError(`A prompt has at most ${MAX_TAGS} tags.`);
      return;
    }
    setError(undefined);
    const typed = draft;
    // Cleared once saved, unless something else was typed meanwhile.
    if (await onTags(prompt, [...tags, tag], `Tagged “${prompt}” ${tag}.`))
      setDraft((current) => (current === typed ? "" : current));
  }

  return (
    <li className="flex flex-col gap-3 py-3 sm:flex-row sm:items-start sm:justify-between">
      <div className="grid min-w-0 gap-2">
        <p className={cn("text-sm font-medium wrap-anywhere", !asked && "text-muted-foreground")}>
          {prompt}
          {!asked && (
            <Badge variant="muted" className="ml-2 align-middle">
              Switched off
            </Badge>
          )}
        </p>
        <div className="flex flex-wrap items-center gap-1.5">
          {tags.length === 0 && !canEdit && <span className="text-xs text-muted-foreground">No tags</span>}
          {tags.map((tag) => (
            <Badge key={tag} variant="outline" className="gap-0.5 pr-1">
              {tag}
              {canEdit && (
                <button
                  type="button"
                  disabled={busy}
                  className="rounded-sm p-0.5 text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none disabled:opacity-50"
                  aria-label={`Remove the tag ${tag} from “${prompt}”`}
                  onClick={() =>
                    onTags(
                      prompt,
                      tags.filter((t) => t !== tag),
                      `Removed the tag ${tag} from “${prompt}”.`,
                    )
                  }
                >
                  <XIcon className="size-3" aria-hidden="true" />
                </button>
              )}
            </Badge>
          ))}
          {canEdit && (
            <form
              noValidate
              className="flex items-center gap-1"
              onSubmit={(event) => {
                event.preventDefault();
                void add();
              }}
            >
              <Input
                aria-label={`New tag for “${prompt}”`}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                placeholder="Add a tag"
                list={datalistId}
                maxLength={40}
                className="h-7 w-36 text-xs md:text-xs"
                value={draft}
                onChange={(event) => setDraft(event.target.value)}
              />
              <Button
                type="submit"
                variant="ghost"
                size="sm"
                className="h-7 px-2"
                disabled={busy || draft.trim() === ""}
                aria-label={`Add the tag to “${prompt}”`}
              >
                <PlusIcon aria-hidden="true" />
                Add
              </Button>
            </form>
          )}
        </div>
        <FieldError id={`${id}-error`} message={error} />
      </div>
      <div className="flex items-center gap-2 sm:pt-0.5">
        <Switch
          id={`${id}-asked`}
          checked={asked}
          disabled={!canEdit || busy}
          onCheckedChange={(on) => void onAsked(prompt, on)}
          aria-label={`Ask “${prompt}” in analyses and monitoring`}
        />
        <span className="w-7 text-xs text-muted-foreground" aria-hidden="true">
          {asked ? "On" : "Off"}
        </span>
      </div>
    </li>
  );
}
