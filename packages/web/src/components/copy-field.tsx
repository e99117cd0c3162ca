import { CheckIcon, CopyIcon } from "lucide-react";
import { useId, useRef, useState } from "react";
import { toast } from "sonner";
import { Button } from "./ui/button.tsx";
import { Label } from "./ui/label.tsx";

/** A read-only value with a copy button: new secrets, invitation links, ids. */
export function CopyField({ label, value, hideLabel = false }: { label: string; value: string; hideLabel?: boolean }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast.success("Copied to the clipboard");
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      // Without clipboard access (plain http on another host), select it for Ctrl+C.
      input.current?.select();
      toast.message("Press Ctrl+C (⌘C on a Mac) to copy the selected text");
    }
  }

  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id} className={hideLabel ? "sr-only" : undefined}>
        {label}
      </Label>
      <div className="flex gap-2">
        <input
          id={id}
          ref={input}
          readOnly
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          className="h-9 min-w-0 flex-1 rounded-md border border-input bg-muted px-3 font-mono text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring/40"
        />
        <Button variant="outline" onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
          {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
          <span className="hidden sm:inline">{copied ? "Copied" : "Copy"}</span>
        </Button>
      </div>
    </div>
  );
}
