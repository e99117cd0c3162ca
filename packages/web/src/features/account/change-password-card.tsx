import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { Field, Form, FormError, PendingButton, useDraft, useSubmit } from "../../components/form.tsx";
import { SectionCard } from "../../components/section-card.tsx";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";
import { passwordProblem } from "../auth/auth-api.ts";
import { NewPasswordFields } from "../auth/new-password-fields.tsx";
import { changePassword } from "./account-api.ts";

export function ChangePasswordCard() {
  const queryClient = useQueryClient();
  const { run, pending, errors, formError } = useSubmit();
  const { draft, text, reset } = useDraft({ current: "", password: "", confirm: "" }, errors);

  function check() {
    const found: Record<string, string> = {};
    if (draft.current === "") found.current = "Enter your current password.";
    const problem = passwordProblem(draft.password);
    if (problem) found.password = problem;
    if (draft.confirm !== draft.password) found.confirm = "The two new passwords are not the same.";
    return found;
  }

  /** A wrong current password comes back as 400 or 401 depending on the library: point at that field. */
  function place(error: unknown): { fields: Record<string, string>; message?: string } {
    if (error instanceof ApiError && (error.status === 401 || error.code === "INVALID_PASSWORD")) {
      return { fields: { current: "This is not your current password." } };
    }
    if (error instanceof ApiError && /PASSWORD/.test(error.code)) return { fields: { password: error.message } };
    return { fields: {}, message: errorMessage(error) };
  }

  const submit = () =>
    run(
      async () => {
        await changePassword(draft.current, draft.password);
        reset();
        void queryClient.invalidateQueries({ queryKey: keys.sessions });
        toast.success("Password changed. Your other devices were signed out.");
      },
      { check, place },
    );

  return (
    <SectionCard
      titleId="password-title"
      title="Change password"
      description="Changing it signs you out on every other device."
    >
      <Form onSubmit={submit} className="grid max-w-md gap-4">
        <FormError message={formError} />
        <Field
          label="Current password"
          name="current-password"
          type="password"
          autoComplete="current-password"
          {...text("current")}
        />
        <NewPasswordFields password={text("password")} confirm={text("confirm")} />
        <PendingButton type="submit" pending={pending} className="justify-self-start">
          Change password
        </PendingButton>
      </Form>
    </SectionCard>
  );
}
