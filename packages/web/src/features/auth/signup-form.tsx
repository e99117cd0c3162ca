import { Field, Form, FormError, PendingButton, useDraft, useSubmit } from "../../components/form.tsx";
import { isEmailAddress } from "../../lib/email.ts";
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
  const { run, pending, errors, formError } = useSubmit();
  // Named as the API names them, so that its issues land on their field.
  const { draft, text } = useDraft(
    { setup_code: "", name: "", email: invitation?.email ?? "", password: "", workspace_name: "" },
    errors,
  );
  const { setup_code: setupCode, name, email, password, workspace_name: workspaceName } = draft;

  function check() {
    const found: Record<string, string> = {};
    if (withSetupCode && setupCode.trim() === "") found.setup_code = "Enter the setup code from the server's console.";
    if (name.trim() === "") found.name = "Enter your name.";
    if (!isEmailAddress(email.trim())) found.email = "Enter an e-mail address such as you@company.com.";
    const problem = passwordProblem(password);
    if (problem) found.password = problem;
    if (withWorkspace && workspaceName.trim() === "") found.workspace_name = "Name the workspace, e.g. your company.";
    return found;
  }

  const submit = () =>
    run(
      async () => {
        const result = await signUp({
          name: name.trim(),
          email: email.trim(),
          password,
          ...(withWorkspace ? { workspace_name: workspaceName.trim() } : {}),
          ...(invitation ? { invitation: invitation.token } : {}),
          ...(withSetupCode ? { setup_code: setupCode.trim() } : {}),
        });
        onDone(result);
      },
      { check, fields: ["setup_code", "name", "email", "password", "workspace_name"] },
    );

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
          {...text("setup_code")}
          hint={
            <>
              Printed in the console where Sightline was started (&ldquo;First run: … setup code&rdquo;), or run{" "}
              <code>npm run sightline -- setup-code</code>. It proves you run this server.
            </>
          }
        />
      )}
      <Field label="Your name" name="name" autoComplete="name" {...text("name")} />
      <Field
        label="Work e-mail"
        name="email"
        type="email"
        autoComplete="email"
        readOnly={invitation !== undefined}
        hint={invitation ? "The invitation was sent to this address." : undefined}
        {...text("email")}
      />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        {...text("password")}
        after={<PasswordRules password={password} />}
      />
      {withWorkspace && (
        <Field
          label="Workspace name"
          name="workspace_name"
          autoComplete="organization"
          hint="Usually your company or agency. You can rename it later."
          {...text("workspace_name")}
        />
      )}
      <PendingButton type="submit" pending={pending} className="mt-1 w-full">
        {submitLabel}
      </PendingButton>
    </Form>
  );
}
