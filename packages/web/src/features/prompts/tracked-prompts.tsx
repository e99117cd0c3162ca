import type { Project } from "@sightline/sdk";
import { useQueryClient } from "@tanstack/react-query";
import { PencilIcon, PlusIcon, Trash2Icon, XIcon } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { ConfirmDialog } from "../../components/confirm-dialog.tsx";
import { FieldError } from "../../components/form.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Input } from "../../components/ui/input.tsx";
import { Label } from "../../components/ui/label.tsx";
import { Switch } from "../../components/ui/switch.tsx";
import { errorMessage } from "../../lib/api.ts";
import { plural } from "../../lib/format.ts";
import { ownValue } from "../../lib/own-keys.ts";
import { cleanTag, isTag } from "../../lib/period.ts";
import { cn } from "../../lib/utils.ts";
import { useBrand } from "../brand-page/brand-context.tsx";
import { allTags, promptChanges } from "./prompts-api.ts";
import { SuggestPromptsDialog } from "./suggest-prompts-dialog.tsx";

const MAX_TAGS = 10;
const MAX_PROMPTS = 200;
const MAX_LENGTH = 2_000;

/** How the server compares prompts: width, case and spacing ignored. */
const fold = (value: string) => value.normalize("NFKC").toLocaleLowerCase("en").replace(/\s+/g, " ").trim();

/** Why `text` cannot be one of the brand's prompts (besides `except`, the one being reworded), if it cannot. */
function promptIssue(project: Project, text: string, except?: string): string | undefined {
  const clean = text.trim();
  if (clean === "") return "Write the question as a buyer would ask it.";
  if (clean.length > MAX_LENGTH) return `At most ${MAX_LENGTH} characters.`;
  if (project.prompts.some((p) => p !== except && fold(p) === fold(clean))) return "This prompt is tracked already.";
  return undefined;
}

type Act = (change: () => Promise<Project>, done: string) => Promise<boolean>;

/**
 * The brand's prompts, managed one at a time: add, reword, tag, switch off or on, delete. Each
 * change is saved at once and applies to the brand as it is on the server, so two people editing
 * prompts at the same time both keep their changes.
 */
export function TrackedPrompts() {
  const { workspaceId, project, canEdit } = useBrand();
  const queryClient = useQueryClient();
  const datalistId = useId();
  const [busy, setBusy] = useState(false);
  const paused = new Set(project.paused_prompts ?? []);

  const act: Act = async (change, done) => {
    setBusy(true);
    try {
      await change();
      toast.success(done);
      return true;
    } catch (error) {
      toast.error(errorMessage(error));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const ids = [queryClient, workspaceId, project.id] as const;

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
      {canEdit && (
        <AddPrompt
          project={project}
          busy={busy}
          onAdd={(prompt) => act(() => promptChanges.add(...ids, { prompt }), `Added “${prompt}”.`)}
        />
      )}
      {project.prompts.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No prompts yet.{" "}
          {canEdit
            ? "Add the questions your buyers ask AI engines above, or let an engine suggest some."
            : "A member of this workspace adds them."}
        </p>
      ) : (
        <ul className="divide-y" aria-label="Prompts with their tags">
          {project.prompts.map((prompt) => (
            <PromptRow
              key={prompt}
              project={project}
              prompt={prompt}
              tags={ownValue(project.prompt_tags, prompt) ?? []}
              asked={!paused.has(prompt)}
              canEdit={canEdit}
              busy={busy}
              datalistId={datalistId}
              act={act}
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

function AddPrompt({
  project,
  busy,
  onAdd,
}: {
  project: Project;
  busy: boolean;
  onAdd: (prompt: string) => Promise<boolean>;
}) {
  const id = useId();
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string>();

  async function add() {
    const issue =
      project.prompts.length >= MAX_PROMPTS
        ? `A brand tracks at most ${MAX_PROMPTS} prompts; delete one first.`
        : promptIssue(project, draft);
    setError(issue);
    if (issue) return;
    const typed = draft;
    if (await onAdd(draft.trim().replace(/\s+/g, " "))) setDraft((current) => (current === typed ? "" : current));
  }

  return (
    <form
      noValidate
      className="mb-4 grid gap-1.5"
      onSubmit={(event) => {
        event.preventDefault();
        void add();
      }}
    >
      <Label htmlFor={id}>Add a prompt</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={id}
          value={draft}
          maxLength={MAX_LENGTH}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          onChange={(event) => {
            setDraft(event.target.value);
            setError(undefined);
          }}
        />
        <Button type="submit" disabled={busy || draft.trim() === ""} className="sm:w-auto">
          <PlusIcon aria-hidden="true" />
          Add prompt
        </Button>
      </div>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        A question a buyer would ask an AI engine, without your brand's name, for example “Which CRM suits a small
        agency?”. Analyses and monitoring ask it from their next run.
      </p>
      <FieldError id={`${id}-error`} message={error} />
    </form>
  );
}

function PromptRow({
  project,
  prompt,
  tags,
  asked,
  canEdit,
  busy,
  datalistId,
  act,
}: {
  project: Project;
  prompt: string;
  tags: string[];
  asked: boolean;
  canEdit: boolean;
  busy: boolean;
  datalistId: string;
  act: Act;
}) {
  const { workspaceId } = useBrand();
  const queryClient = useQueryClient();
  const ids = [queryClient, workspaceId, project.id] as const;
  const id = useId();
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string>();
  const [editing, setEditing] = useState(false);

  const setTags = (next: string[], done: string) =>
    act(() => promptChanges.change(...ids, { prompt, tags: next }), done);

  async function addTag() {
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
    if (await setTags([...tags, tag], `Tagged “${prompt}” ${tag}.`))
      setDraft((current) => (current === typed ? "" : current));
  }

  return (
    <li className="flex flex-col gap-3 py-3 sm:flex-row sm:items-start sm:justify-between">
      <div className="grid min-w-0 flex-1 gap-2">
        {editing ? (
          <RewordPrompt
            project={project}
            prompt={prompt}
            busy={busy}
            onCancel={() => setEditing(false)}
            onSave={async (text) => {
              if (await act(() => promptChanges.change(...ids, { prompt, text }), `Reworded to “${text}”.`))
                setEditing(false);
            }}
          />
        ) : (
          <p className={cn("text-sm font-medium wrap-anywhere", !asked && "text-muted-foreground")}>
            {prompt}
            {!asked && (
              <Badge variant="muted" className="ml-2 align-middle">
                Switched off
              </Badge>
            )}
          </p>
        )}
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
                    setTags(
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
                void addTag();
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
      <div className="flex items-center gap-1 sm:pt-0.5">
        <Switch
          id={`${id}-asked`}
          checked={asked}
          disabled={!canEdit || busy}
          onCheckedChange={(on) =>
            void act(
              () => promptChanges.change(...ids, { prompt, paused: !on }),
              on ? `“${prompt}” is asked again.` : `“${prompt}” is switched off: analyses and monitoring skip it.`,
            )
          }
          aria-label={`Ask “${prompt}” in analyses and monitoring`}
        />
        <span className="w-7 text-xs text-muted-foreground" aria-hidden="true">
          {asked ? "On" : "Off"}
        </span>
        {canEdit && (
          <>
            <Button
              variant="ghost"
              size="icon"
              disabled={busy || editing}
              aria-label={`Reword “${prompt}”`}
              title="Reword"
              onClick={() => setEditing(true)}
            >
              <PencilIcon aria-hidden="true" />
            </Button>
            <ConfirmDialog
              trigger={
                <Button variant="ghost" size="icon" disabled={busy} aria-label={`Delete “${prompt}”`} title="Delete">
                  <Trash2Icon aria-hidden="true" />
                </Button>
              }
              title="Stop tracking this prompt?"
              description={`“${prompt}” will no longer be asked, and its tags go with it. Its answers so far are kept.`}
              confirmLabel="Delete prompt"
              onConfirm={async () => {
                await promptChanges.remove(...ids, prompt);
                toast.success(`Stopped tracking “${prompt}”.`);
              }}
            />
          </>
        )}
      </div>
    </li>
  );
}

function RewordPrompt({
  project,
  prompt,
  busy,
  onCancel,
  onSave,
}: {
  project: Project;
  prompt: string;
  busy: boolean;
  onCancel: () => void;
  onSave: (text: string) => Promise<void>;
}) {
  const id = useId();
  const [text, setText] = useState(prompt);
  const [error, setError] = useState<string>();
  return (
    <form
      noValidate
      className="grid gap-1.5"
      onSubmit={(event) => {
        event.preventDefault();
        const issue = promptIssue(project, text, prompt);
        setError(issue);
        if (!issue) void onSave(text.trim().replace(/\s+/g, " "));
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape") onCancel();
      }}
    >
      <Label htmlFor={id} className="sr-only">
        New wording of “{prompt}”
      </Label>
      <Input
        id={id}
        autoFocus
        value={text}
        maxLength={MAX_LENGTH}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        onChange={(event) => {
          setText(event.target.value);
          setError(undefined);
        }}
      />
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        A new wording is a new question: the answers so far keep the wording they were asked with and stay under it in
        the figures; new answers use the new one. Its tags and switch stay.
      </p>
      <FieldError id={`${id}-error`} message={error} />
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={busy || text.trim() === prompt}>
          Save
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
