import { Link } from "@tanstack/react-router";
import { Field, Form, FormError, PendingButton, useDraft, useSubmit } from "../../components/form.tsx";
import { signIn } from "./auth-api.ts";

/** E-mail and password; `email` fixed when signing in to accept an invitation. */
export function SignInForm({ email: fixedEmail, onDone }: { email?: string; onDone: () => unknown }) {
  const { run, pending, errors, formError } = useSubmit();
  const { draft, set, text } = useDraft({ email: fixedEmail ?? "", password: "" }, errors);

  function check() {
    const found: Record<string, string> = {};
    if (draft.email.trim() === "") found.email = "Enter your e-mail address.";
    if (draft.password === "") found.password = "Enter your password.";
    return found;
  }

  const submit = () =>
    run(
      async () => {
        try {
          await signIn(draft.email.trim(), draft.password);
          await onDone();
        } catch (error) {
          set("password", "");
          throw error;
        }
      },
      { check, fields: ["email", "password"] },
    );

  return (
    <Form onSubmit={submit} className="grid gap-4">
      <FormError message={formError} />
      <Field
        label="E-mail"
        name="email"
        type="email"
        autoComplete="username"
        readOnly={fixedEmail !== undefined}
        {...text("email")}
      />
      <div className="grid gap-1.5">
        <Field label="Password" name="password" type="password" autoComplete="current-password" {...text("password")} />
        <Link
          to="/forgot-password"
          className="justify-self-end text-sm text-primary underline-offset-4 hover:underline"
        >
          Forgot password?
        </Link>
      </div>
      <PendingButton type="submit" pending={pending} className="w-full">
        Sign in
      </PendingButton>
    </Form>
  );
}
