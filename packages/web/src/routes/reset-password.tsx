import { getRouteApi, Link } from "@tanstack/react-router";
import { CheckCircle2Icon } from "lucide-react";
import { useState } from "react";
import { AuthLayout } from "../components/auth-layout.tsx";
import { Form, FormError, PendingButton, useDraft, useSubmit } from "../components/form.tsx";
import { Button } from "../components/ui/button.tsx";
import { passwordProblem, resetPassword } from "../features/auth/auth-api.ts";
import { NewPasswordFields } from "../features/auth/new-password-fields.tsx";
import { ApiError, errorMessage } from "../lib/api.ts";

const route = getRouteApi("/reset-password");

export function ResetPasswordPage() {
  const { token, error: linkError } = route.useSearch();
  const { run, pending, errors, formError } = useSubmit();
  const { draft, text } = useDraft({ password: "", confirm: "" }, errors);
  const [done, setDone] = useState(false);

  const signInLink = (
    <Link to="/sign-in" className="font-medium text-primary underline-offset-4 hover:underline">
      Back to sign in
    </Link>
  );

  if (!token || linkError) {
    return (
      <AuthLayout title="This reset link does not work" footer={signInLink}>
        <p className="text-sm text-muted-foreground">
          It has expired, was already used, or was copied incompletely. Ask for a new one.
        </p>
        <Button asChild className="mt-6 w-full">
          <Link to="/forgot-password">Get a new reset link</Link>
        </Button>
      </AuthLayout>
    );
  }

  if (done) {
    return (
      <AuthLayout title="Your password has been changed">
        <p className="flex gap-2 text-sm" role="status">
          <CheckCircle2Icon className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
          You were signed out everywhere. Sign in with your new password.
        </p>
        <Button asChild className="mt-6 w-full">
          <Link to="/sign-in">Sign in</Link>
        </Button>
      </AuthLayout>
    );
  }

  function check() {
    const found: Record<string, string> = {};
    const problem = passwordProblem(draft.password);
    if (problem) found.password = problem;
    if (draft.confirm !== draft.password) found.confirm = "The two passwords are not the same.";
    return found;
  }

  const submit = (link: string) =>
    run(
      async () => {
        await resetPassword(link, draft.password);
        setDone(true);
      },
      {
        check,
        place: (error) => ({
          fields: {},
          message:
            error instanceof ApiError && /TOKEN/i.test(error.code)
              ? "This reset link has expired or was already used. Ask for a new one."
              : errorMessage(error),
        }),
      },
    );

  return (
    <AuthLayout title="Choose a new password" footer={signInLink}>
      <Form onSubmit={() => submit(token)} className="grid gap-4">
        <FormError message={formError} />
        <NewPasswordFields password={text("password")} confirm={text("confirm")} />
        <PendingButton type="submit" pending={pending} className="w-full">
          Set new password
        </PendingButton>
      </Form>
    </AuthLayout>
  );
}
