import { PlusIcon } from "lucide-react";
import { toast } from "sonner";
import { Field, useDraft, useSubmit } from "../../components/form.tsx";
import { DialogForm, FormDialog } from "../../components/form-dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import { errorMessage, fieldErrors } from "../../lib/api.ts";
import { useEnginesChanged } from "./connect-engine-dialog.tsx";
import { createEngine } from "./engines-api.ts";

/** "Add an engine": an OpenAI-compatible API of the workspace's own (Ollama, vLLM, a proxy, another vendor). */
export function AddEngineDialog({ workspaceId }: { workspaceId: string }) {
  return (
    <FormDialog
      trigger={
        <Button>
          <PlusIcon aria-hidden="true" />
          Add engine
        </Button>
      }
    >
      {(close) => <AddEngineForm workspaceId={workspaceId} close={close} />}
    </FormDialog>
  );
}

/** `My LLM 2` → `my_llm_2`: the name requests and answers use. */
function slugOf(title: string): string {
  const slug = title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 40);
  return /^[a-z]/.test(slug) ? slug : `engine_${slug}`.slice(0, 40);
}

const FIELDS = ["title", "base_url", "model", "api_key"] as const;

/** The server's issues next to their fields; the name's on the title it is made from. */
function placed(error: unknown): { fields: Record<string, string>; message?: string } {
  const { name, ...issues } = fieldErrors(error);
  const fields = Object.fromEntries(Object.entries(issues).filter(([field]) => FIELDS.includes(field as never)));
  if (name !== undefined) fields.title = name === "is taken by another engine" ? "Another engine has this name." : name;
  return Object.keys(fields).length > 0 ? { fields } : { fields: {}, message: errorMessage(error) };
}

function AddEngineForm({ workspaceId, close }: { workspaceId: string; close: () => void }) {
  const changed = useEnginesChanged(workspaceId);
  const { run, pending, errors, formError } = useSubmit();
  const { draft, text } = useDraft({ title: "", base_url: "", model: "", api_key: "" }, errors);

  function check() {
    const found: Record<string, string> = {};
    if (draft.title.trim() === "") found.title = "Give it a name.";
    if (!/^https?:\/\/\S+$/i.test(draft.base_url.trim()))
      found.base_url = "Enter the full address, starting with https://";
    if (draft.model.trim() === "") found.model = "Say which model to ask.";
    const key = draft.api_key.trim();
    if (key !== "" && key.length < 8) found.api_key = "This is too short to be a key.";
    return found;
  }

  const submit = () =>
    run(
      async () => {
        const key = draft.api_key.trim();
        const created = await createEngine(workspaceId, {
          name: slugOf(draft.title),
          title: draft.title.trim(),
          base_url: draft.base_url.trim(),
          model: draft.model.trim(),
          ...(key === "" ? {} : { api_key: key }),
        });
        await changed();
        toast.success(`${created.title} is added: test its connection`);
        close();
      },
      { check, place: (error) => placed(error) },
    );

  return (
    <DialogForm
      title="Add an OpenAI-compatible engine"
      description="Any API that speaks OpenAI's chat completions: a model you host (Ollama, vLLM), a proxy, or another vendor. Only this workspace uses it."
      onSubmit={submit}
      error={formError}
      pending={pending}
      label="Add engine"
      className="grid gap-5"
    >
      <Field label="Name" name="title" autoComplete="off" placeholder="e.g. Our Llama" {...text("title")} />
      <Field
        label="Base URL"
        name="base_url"
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="e.g. https://llm.example.com/v1"
        hint="A public address; the server refuses private and loopback ones unless its operator allows them."
        {...text("base_url")}
      />
      <Field
        label="Model"
        name="model"
        autoComplete="off"
        spellCheck={false}
        placeholder="e.g. llama3.1"
        {...text("model")}
      />
      <Field
        label="API key (optional)"
        name="api_key"
        type="password"
        autoComplete="off"
        spellCheck={false}
        hint="Stored encrypted and never shown again: only its last four characters."
        {...text("api_key")}
      />
    </DialogForm>
  );
}
