import { getRouteApi, Link } from "@tanstack/react-router";
import { CheckCircle2Icon } from "lucide-react";
import { useState } from "react";
import { AuthLayout } from "../components/auth-layout.tsx";
import { Field, Form, FormError } from "../components/form.tsx";
import { Spinner } from "../components/page-states.tsx";
import { Button } from "../components/ui/button.tsx";
import { passwordProblem, resetPassword } from "../features/auth/auth-api.ts";
import { PasswordRules } from "../features/auth/password-rules.tsx";
import { ApiError, errorMessage } from "../lib/api.ts";

const route = getRouteApi("/reset-password");

export function ResetPasswordPage() {
  const { token, error: linkError } = route.useSearch();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [formError, setFormError] = useState<string>();
  const [pending, setPending] = useState(false);
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

  async function submit() {
    if (!token) return;
    const found: { password?: string; confirm?: string } = {};
    const problem = passwordProblem(password);
    if (problem) found.password = problem;
    if (confirm !== password) found.confirm = "The two passwords are not the same.";
    setErrors(found);
    setFormError(undefined);
    if (found.password || found.confirm) return;
    setPending(true);
    try {
      await resetPassword(token, password);
      setDone(true);
    } catch (caught) {
      setFormError(
        caught instanceof ApiError && /TOKEN/i.test(caught.code)
          ? "This reset link has expired or was already used. Ask for a new one."
          : errorMessage(caught),
      );
    } finally {
      setPending(false);
    }
  }

  return (
    <AuthLayout title="Choose a new password" footer={signInLink}>
      <Form onSubmit={submit} className="grid gap-4">
        <FormError message={formError} />
        <Field
          label="New password"
          name="new-password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={errors.password}
          after={<PasswordRules password={password} />}
        />
        <Field
          label="Repeat the new password"
          name="confirm-password"
          type="password"
          autoComplete="new-password"
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
          error={errors.confirm}
        />
        <Button type="submit" disabled={pending} className="w-full">
          {pending && <Spinner />}
          Set new password
        </Button>
      </Form>
    </AuthLayout>
  );
}
