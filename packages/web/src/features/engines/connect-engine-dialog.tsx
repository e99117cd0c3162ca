import { useQueryClient } from "@tanstack/react-query";
import { KeyRoundIcon } from "lucide-react";
import { toast } from "sonner";
import { Field, useDraft, useSubmit } from "../../components/form.tsx";
import { DialogForm, FormDialog } from "../../components/form-dialog.tsx";
import { Button } from "../../components/ui/button.tsx";
import { keys } from "../../lib/queries.ts";
import type { EngineStatus } from "../../lib/types.ts";
import { updateEngine } from "./engines-api.ts";

/** Refreshes the engines and the workspace (its engine list, which custom engines join). */
export function useEnginesChanged(workspaceId: string) {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "engines") });
    await queryClient.invalidateQueries({ queryKey: keys.workspace(workspaceId), exact: true });
  };
}

/** Sets or replaces an engine's key and its model (a custom engine's name and address too). The key is never shown again. */
export function ConnectEngineDialog({ workspaceId, engine }: { workspaceId: string; engine: EngineStatus }) {
  const hasKey = engine.key_hint !== null;
  return (
    <FormDialog
      trigger={
        <Button variant={hasKey || engine.custom ? "outline" : "default"} size="sm">
          <KeyRoundIcon aria-hidden="true" />
          {engine.custom ? "Edit" : hasKey ? "Change key" : "Add key"}
          <span className="sr-only"> for {engine.title}</span>
        </Button>
      }
    >
      {(close) => <ConnectEngineForm workspaceId={workspaceId} engine={engine} close={close} />}
    </FormDialog>
  );
}

function ConnectEngineForm({
  workspaceId,
  engine,
  close,
}: {
  workspaceId: string;
  engine: EngineStatus;
  close: () => void;
}) {
  const changed = useEnginesChanged(workspaceId);
  const { run, pending, errors, formError } = useSubmit();
  const { draft, text } = useDraft(
    { api_key: "", model: engine.model ?? "", title: engine.title, base_url: engine.base_url ?? "" },
    errors,
  );

  function check() {
    const found: Record<string, string> = {};
    const key = draft.api_key.trim();
    if (key !== "" && key.length < 8) found.api_key = "This is too short to be a key.";
    if (!engine.custom && key === "" && engine.key_hint === null && draft.model.trim() === "")
      found.api_key = "Paste the key from the vendor's console.";
    if (engine.custom && draft.model.trim() === "") found.model = "Say which model to ask.";
    if (engine.custom && !/^https?:\/\/\S+$/i.test(draft.base_url.trim()))
      found.base_url = "Enter the full address, starting with https://";
    return found;
  }

  const submit = () =>
    run(
      async () => {
        const key = draft.api_key.trim();
        const model = draft.model.trim();
        await updateEngine(workspaceId, engine.name, {
          ...(key === "" ? {} : { api_key: key }),
          ...(model === (engine.model ?? "") ? {} : { model: model === "" ? null : model }),
          ...(engine.custom ? { title: draft.title.trim(), base_url: draft.base_url.trim() } : {}),
        });
        await changed();
        toast.success(`${engine.title} is saved`);
        close();
      },
      { check, fields: ["api_key", "model", "title", "base_url"] },
    );

  return (
    <DialogForm
      title={engine.custom ? `Edit ${engine.title}` : `Connect ${engine.title}`}
      description={
        engine.custom
          ? "An OpenAI-compatible API of your own. Its key, if it needs one, is stored encrypted and never shown again."
          : `The key is used for this workspace only, instead of the server's. It is stored encrypted and never shown again: only its last four characters.`
      }
      onSubmit={submit}
      error={formError}
      pending={pending}
      label="Save"
      className="grid gap-5"
    >
      {engine.custom && <Field label="Name shown" name="title" autoComplete="off" {...text("title")} />}
      {engine.custom && (
        <Field
          label="Base URL"
          name="base_url"
          type="url"
          inputMode="url"
          autoComplete="off"
          hint="The address its OpenAI-compatible API answers at, usually ending in /v1."
          {...text("base_url")}
        />
      )}
      <Field
        label={engine.custom ? "API key (optional)" : "API key"}
        name="api_key"
        type="password"
        autoComplete="off"
        spellCheck={false}
        placeholder={engine.key_hint === null ? "Paste the key" : `•••• ${engine.key_hint} (leave empty to keep it)`}
        hint={engine.key_hint === null ? "From the vendor's console." : "Type a new key to replace the saved one."}
        {...text("api_key")}
      />
      {(engine.custom || engine.default_model !== null) && (
        <Field
          label={engine.custom ? "Model" : "Model (optional)"}
          name="model"
          autoComplete="off"
          spellCheck={false}
          placeholder={engine.default_model ?? ""}
          hint={
            engine.custom
              ? "The model name the API expects, e.g. llama3.1."
              : `Empty: ${engine.default_model ?? "the vendor's default"}, the server's choice. Used with your key only.`
          }
          {...text("model")}
        />
      )}
    </DialogForm>
  );
}
