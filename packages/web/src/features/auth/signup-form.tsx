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
  /** First run: ask for the code the server printed when it started. */
  withSetupCode?: boolean;
  submitLabel: string;
  onDone: (result: SignupResult) => void;
}

export function SignupForm({ withWorkspace, invitation, withSetupCode = false, submitLabel, onDone }: SignupFormProps) {
  const [setupCode, setSetupCode] = useState("");
  const [name, setName] = useState("");
  const [email, setEmail] = useState(invitation?.email ?? "");
  const [password, setPassword] = useState("");
  const [workspaceName, setWorkspaceName] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function submit() {
    const found: Record<string, string> = {};
    if (withSetupCode && setupCode.trim() === "") found.setup_code = "Enter the setup code from the server's console.";
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
        ...(withSetupCode ? { setup_code: setupCode.trim() } : {}),
      });
      onDone(result);
    } catch (error) {
      const split = formErrors(error, ["setup_code", "name", "email", "password", "workspace_name"]);
      setErrors(split.fields);
      setFormError(split.message);
    } finally {
      setPending(false);
    }
  }

  return (
    <Form onSubmit={submit} className="grid gap-4">
      <FormError message={formError} />
      {withSetupCode && (
        <Field
          label="Setup code"
          name="setup_code"
          autoComplete="off"
          spellCheck={false}
          placeholder="XXXX-XXXX-XXXX-XXXX"
          value={setupCode}
          onChange={(event) => setSetupCode(event.target.value)}
          hint={
            <>
              Printed in the console where Sightline was started (&ldquo;First run: … setup code&rdquo;), or run{" "}
              <code>npm run sightline -- setup-code</code>. It proves you run this server.
            </>
          }
          error={errors.setup_code}
        />
      )}
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
