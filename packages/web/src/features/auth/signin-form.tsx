import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { Field, Form, FormError } from "../../components/form.tsx";
import { Spinner } from "../../components/page-states.tsx";
import { Button } from "../../components/ui/button.tsx";
import { formErrors } from "../../lib/api.ts";
import { signIn } from "./auth-api.ts";

/** E-mail and password; `email` fixed when signing in to accept an invitation. */
export function SignInForm({ email: fixedEmail, onDone }: { email?: string; onDone: () => unknown }) {
  const [email, setEmail] = useState(fixedEmail ?? "");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function submit() {
    const found: Record<string, string> = {};
    if (email.trim() === "") found.email = "Enter your e-mail address.";
    if (password === "") found.password = "Enter your password.";
    setErrors(found);
    setFormError(undefined);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    try {
      await signIn(email.trim(), password);
      await onDone();
    } catch (error) {
      const split = formErrors(error, ["email", "password"]);
      setErrors(split.fields);
      setFormError(split.message);
      setPassword("");
    } finally {
      setPending(false);
    }
  }

  return (
    <Form onSubmit={submit} className="grid gap-4">
      <FormError message={formError} />
      <Field
        label="E-mail"
        name="email"
        type="email"
        autoComplete="username"
        value={email}
        readOnly={fixedEmail !== undefined}
        onChange={(event) => setEmail(event.target.value)}
        error={errors.email}
      />
      <div className="grid gap-1.5">
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={errors.password}
        />
        <Link
          to="/forgot-password"
          className="justify-self-end text-sm text-primary underline-offset-4 hover:underline"
        >
          Forgot password?
        </Link>
      </div>
      <Button type="submit" disabled={pending} className="w-full">
        {pending && <Spinner />}
        Sign in
      </Button>
    </Form>
  );
}
