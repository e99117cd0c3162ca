import { Spinner } from "../../components/page-states.tsx";
import { Progress } from "../../components/ui/progress.tsx";
import { plural } from "../../lib/format.ts";
import type { Pitch } from "./pitches-api.ts";

/** The pitch's analysis as it runs (its page asks every 1.5 s): answers received of those asked. */
export function PitchProgress({ pitch }: { pitch: Pitch }) {
  const { done, total } = pitch.answers;
  const running = pitch.status === "running";
  const share = total > 0 ? (done / total) * 100 : running ? 0 : 100;
  return (
    <div className="grid gap-2">
      <Progress value={share} aria-label="Answers received" aria-valuetext={`${done} of ${total} answers`} />
      <p className="flex flex-wrap items-center gap-2 text-sm tabular-nums" aria-live="polite">
        {running && <Spinner className="text-muted-foreground" />}
        <span>
          <strong className="font-semibold">{done}</strong> of {plural(total, "answer")} received
          {running ? ": the engines are being asked…" : "."}
        </span>
      </p>
    </div>
  );
}
