import { useState } from "react";
import { Field, Form, FormError } from "../../components/form.tsx";
import { Spinner } from "../../components/page-states.tsx";
import { Button } from "../../components/ui/button.tsx";
import { formErrors } from "../../lib/api.ts";
import type { SignupResult } from "../../lib/types.ts";
import { passwordProblem, signUp } from "./auth-api.ts";
import { PasswordRules } from "./password-rules.tsx";

interface SignupFormProps {
  /** Ask for a workspace name (first run, open sign-up); an invitation joins an existing one instead. */
  withWorkspace: boolean;
  invitation?: { token: string; email: string };
  submitLabel: string;
  onDone: (result: SignupResult) => void;
}

export function SignupForm({ withWorkspace, invitation, submitLabel, onDone }: SignupFormProps) {
  const [name, setName] = useState("");
  const [email, setEmail] = useState(invitation?.email ?? "");
  const [password, setPassword] = useState("");
  const [workspaceName, setWorkspaceName] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function submit() {
    const found: Record<string, string> = {};
    if (name.trim() === "") found.name = "Enter your name.";
    if (!/^[^\s@]+@[^\s@]+$/.test(email.trim())) found.email = "Enter an e-mail address such as you@company.com.";
    const problem = passwordProblem(password);
    if (problem) found.password = problem;
    if (withWorkspace && workspaceName.trim() === "") found.workspace_name = "Name the workspace, e.g. your company.";
    setErrors(found);
    setFormError(undefined);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    try {
      const result = await signUp({
        name: name.trim(),
        email: email.trim(),
        password,
        ...(withWorkspace ? { workspace_name: workspaceName.trim() } : {}),
        ...(invitation ? { invitation: invitation.token } : {}),
      });
      onDone(result);
    } catch (error) {
      const split = formErrors(error, ["name", "email", "password", "workspace_name"]);
      setErrors(split.fields);
      setFormError(split.message);
    } finally {
      setPending(false);
    }
  }

  return (
    <Form onSubmit={submit} className="grid gap-4">
      <FormError message={formError} />
      <Field
        label="Your name"
        name="name"
        autoComplete="name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={errors.name}
      />
      <Field
        label="Work e-mail"
        name="email"
        type="email"
        autoComplete="email"
        value={email}
        readOnly={invitation !== undefined}
        hint={invitation ? "The invitation was sent to this address." : undefined}
        onChange={(event) => setEmail(event.target.value)}
        error={errors.email}
      />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={errors.password}
        after={<PasswordRules password={password} />}
      />
      {withWorkspace && (
        <Field
          label="Workspace name"
          name="workspace_name"
          autoComplete="organization"
          value={workspaceName}
          onChange={(event) => setWorkspaceName(event.target.value)}
          hint="Usually your company or agency. You can rename it later."
          error={errors.workspace_name}
        />
      )}
      <Button type="submit" disabled={pending} className="mt-1 w-full">
        {pending && <Spinner />}
        {submitLabel}
      </Button>
    </Form>
  );
}
