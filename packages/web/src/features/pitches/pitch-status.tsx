import { Badge } from "../../components/ui/badge.tsx";
import type { Pitch } from "./pitches-api.ts";

const STATUS = {
  draft: { label: "Not run yet", variant: "muted" },
  running: { label: "Running", variant: "secondary" },
  ready: { label: "Ready", variant: "success" },
  failed: { label: "Failed", variant: "destructive" },
  converted: { label: "Client now", variant: "outline" },
} as const;

export function PitchStatus({ status }: { status: Pitch["status"] }) {
  const shown = STATUS[status];
  return <Badge variant={shown.variant}>{shown.label}</Badge>;
}

/** The prospect as people call it: its name once run, else its website's host. */
export function pitchTitle(pitch: Pick<Pitch, "name" | "website">): string {
  if (pitch.name) return pitch.name;
  try {
    return new URL(pitch.website).hostname.replace(/^www\./, "");
  } catch {
    return pitch.website;
  }
}
