import { Toaster as Sonner, type ToasterProps } from "sonner";

/** Toasts: short confirmations and errors that are not tied to one form. */
export function Toaster(props: ToasterProps) {
  return (
    <Sonner
      position="bottom-right"
      closeButton
      // Listed one above the other rather than stacked: a toast half-hidden behind another is hard to read.
      expand
      toastOptions={{
        classNames: {
          toast: "!rounded-lg !border !border-border !bg-card !text-card-foreground !shadow-md",
          description: "!text-muted-foreground",
          error: "!border-destructive/40",
        },
      }}
      {...props}
    />
  );
}
