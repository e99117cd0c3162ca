import { type ComponentProps, createContext, type ReactNode, useContext, useEffect, useState } from "react";
import { Form, FormError, PendingButton } from "./form.tsx";
import { Button } from "./ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "./ui/dialog.tsx";

/** Set while the dialog shows something that a stray click outside must not throw away. */
const KeepOpen = createContext<(keep: boolean) => void>(() => {});

/**
 * A dialog opened by its trigger. Its content mounts afresh at each opening and is gone when it closes,
 * with all it held (a half-filled form, a secret shown once). `children` may take `close`, for a form that
 * closes the dialog when it is done.
 */
export function FormDialog({
  trigger,
  className,
  children,
}: {
  trigger: ReactNode;
  className?: string;
  children: ReactNode | ((close: () => void) => ReactNode);
}) {
  const [open, setOpen] = useState(false);
  const [keepOpen, setKeepOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent
        className={className}
        // Esc and the buttons still close it.
        onInteractOutside={(event) => {
          if (keepOpen) event.preventDefault();
        }}
      >
        <KeepOpen.Provider value={setKeepOpen}>
          {open && (typeof children === "function" ? children(() => setOpen(false)) : children)}
        </KeepOpen.Provider>
      </DialogContent>
    </Dialog>
  );
}

/** While the calling component is shown, a click outside its dialog does not close it. */
export function useKeepDialogOpen() {
  const keep = useContext(KeepOpen);
  useEffect(() => {
    keep(true);
    return () => keep(false);
  }, [keep]);
}

export function DialogHeading({ title, description }: { title: ReactNode; description: ReactNode }) {
  return (
    <DialogHeader>
      <DialogTitle>{title}</DialogTitle>
      <DialogDescription>{description}</DialogDescription>
    </DialogHeader>
  );
}

type DialogActionsProps = Omit<ComponentProps<typeof PendingButton>, "children"> & {
  label: ReactNode;
  /** Replaces the Cancel button; `false` for none. */
  cancel?: ReactNode;
};

/** A dialog's buttons: Cancel, and the one that does the work, with its spinner while it runs. */
export function DialogActions({ label, cancel, ...button }: DialogActionsProps) {
  return (
    <DialogFooter>
      {cancel === undefined ? (
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
      ) : (
        cancel
      )}
      <PendingButton {...button}>{label}</PendingButton>
    </DialogFooter>
  );
}

/** The last step's only button, which closes the dialog. */
export function DialogDone({ label, variant }: { label: string; variant?: "outline" }) {
  return (
    <DialogFooter>
      <DialogClose asChild>
        <Button variant={variant}>{label}</Button>
      </DialogClose>
    </DialogFooter>
  );
}

/** A dialog's form: its heading, the form's error on top, the fields, then Cancel and submit. */
export function DialogForm({
  title,
  description,
  onSubmit,
  error,
  className = "grid gap-4",
  children,
  ...actions
}: Omit<DialogActionsProps, "type" | "onSubmit"> & {
  title: ReactNode;
  description: ReactNode;
  onSubmit: () => unknown;
  error: string | undefined;
  children: ReactNode;
}) {
  return (
    <>
      <DialogHeading title={title} description={description} />
      <Form onSubmit={onSubmit} className={className}>
        <FormError message={error} />
        {children}
        <DialogActions type="submit" {...actions} />
      </Form>
    </>
  );
}
