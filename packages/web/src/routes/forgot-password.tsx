import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { MailCheckIcon } from "lucide-react";
import { useState } from "react";
import { AuthLayout } from "../components/auth-layout.tsx";
import { Field, Form, FormError, PendingButton, useDraft, useSubmit } from "../components/form.tsx";
import { requestPasswordReset } from "../features/auth/auth-api.ts";
import { setupQuery } from "../lib/queries.ts";

export function ForgotPasswordPage() {
  const setup = useQuery(setupQuery);
  const [sentTo, setSentTo] = useState<string>();
  const { run, pending, errors, formError } = useSubmit();
  const { draft, text } = useDraft({ email: "" }, errors);
  const { email } = draft;

  const submit = () =>
    run(
      async () => {
        await requestPasswordReset(email.trim());
        setSentTo(email.trim());
      },
      {
        check: () => (email.trim() === "" ? { email: "Enter the e-mail address you sign in with." } : {}),
      },
    );

  const footer = (
    <Link to="/sign-in" className="font-medium text-primary underline-offset-4 hover:underline">
      Back to sign in
    </Link>
  );
  const command = `npm run sightline -- user reset-link --email ${sentTo ?? "you@company.com"}`;

  if (sentTo) {
    const emailOn = setup.data?.email_delivery ?? true;
    return (
      <AuthLayout title={emailOn ? "Check your e-mail" : "Ask for a reset link"} footer={footer}>
        <div className="grid gap-4 text-sm" role="status">
          {emailOn ? (
            <p className="flex gap-2">
              <MailCheckIcon className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
              <span>
                If an account exists for <strong>{sentTo}</strong>, we have sent it a link to choose a new password. It
                can take a minute to arrive; check your spam folder too.
              </span>
            </p>
          ) : (
            <p>
              This Sightline server has no e-mail set up, so no link could be sent to <strong>{sentTo}</strong>.
            </p>
          )}
          <p className="text-muted-foreground">
            {emailOn ? "Nothing arrived? " : ""}An admin of your workspace, or whoever runs this Sightline server, can
            give you a reset link. They create one with:
          </p>
          <code className="block rounded-md bg-muted px-3 py-2 font-mono text-xs wrap-anywhere">{command}</code>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Reset your password"
      description="Enter the e-mail address you sign in with. We'll send you a link to choose a new password."
      footer={footer}
    >
      <Form onSubmit={submit} className="grid gap-4">
        <FormError message={formError} />
        <Field label="E-mail" name="email" type="email" autoComplete="email" {...text("email")} />
        <PendingButton type="submit" pending={pending} className="w-full">
          Send reset link
        </PendingButton>
        <p className="text-xs text-muted-foreground">
          No e-mail arriving? An admin of your workspace, or whoever runs this Sightline server, can create a reset link
          for you.
        </p>
      </Form>
    </AuthLayout>
  );
}
