import { useQueryClient } from "@tanstack/react-query";
import { CheckCircle2Icon, PlugZapIcon, XCircleIcon } from "lucide-react";
import { useState } from "react";
import { PendingButton } from "../../components/form.tsx";
import { errorMessage } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";
import type { EngineStatus, EngineTest } from "../../lib/types.ts";
import { testEngine } from "./engines-api.ts";

/** "Test connection": one short question through the real engine; its answer or the vendor's error, shown here. */
export function TestConnection({ workspaceId, engine }: { workspaceId: string; engine: EngineStatus }) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<EngineTest | { ok: false; error: string; answer: null }>();

  async function test() {
    setPending(true);
    setOutcome(undefined);
    try {
      setOutcome(await testEngine(workspaceId, engine.name));
      await queryClient.invalidateQueries({ queryKey: keys.workspacePart(workspaceId, "engines") });
    } catch (error) {
      setOutcome({ ok: false, error: errorMessage(error), answer: null });
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="grid gap-2">
      <PendingButton
        variant="outline"
        size="sm"
        pending={pending}
        disabled={engine.status === "no_key"}
        onClick={test}
        className="justify-self-start"
      >
        {!pending && <PlugZapIcon aria-hidden="true" />}
        Test connection<span className="sr-only"> to {engine.title}</span>
      </PendingButton>
      <div aria-live="polite">
        {outcome?.ok && (
          <p className="flex items-start gap-2 rounded-md border border-success/30 bg-success/5 px-3 py-2 text-sm">
            <CheckCircle2Icon className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
            <span>
              <span className="font-medium">{engine.title} answered:</span> “{outcome.answer}”
            </span>
          </p>
        )}
        {outcome !== undefined && !outcome.ok && (
          <p className="flex items-start gap-2 rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm">
            <XCircleIcon className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
            <span className="break-words [overflow-wrap:anywhere]">
              <span className="font-medium">The test failed:</span> {outcome.error}
            </span>
          </p>
        )}
      </div>
    </div>
  );
}
