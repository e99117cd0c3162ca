import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "sonner";
import { Field, Form, FormError } from "../../components/form.tsx";
import { Spinner } from "../../components/page-states.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { keys } from "../../lib/queries.ts";
import { passwordProblem } from "../auth/auth-api.ts";
import { PasswordRules } from "../auth/password-rules.tsx";
import { changePassword } from "./account-api.ts";

interface Errors {
  current?: string;
  next?: string;
  confirm?: string;
}

export function ChangePasswordCard() {
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function submit() {
    const found: Errors = {};
    if (current === "") found.current = "Enter your current password.";
    const problem = passwordProblem(next);
    if (problem) found.next = problem;
    if (confirm !== next) found.confirm = "The two new passwords are not the same.";
    setErrors(found);
    setFormError(undefined);
    if (found.current || found.next || found.confirm) return;
    setPending(true);
    try {
      await changePassword(current, next);
      setCurrent("");
      setNext("");
      setConfirm("");
      void queryClient.invalidateQueries({ queryKey: keys.sessions });
      toast.success("Password changed. Your other devices were signed out.");
    } catch (error) {
      // A wrong current password comes back as 400 or 401 depending on the library: point at that field.
      if (error instanceof ApiError && (error.status === 401 || error.code === "INVALID_PASSWORD")) {
        setErrors({ current: "This is not your current password." });
      } else if (error instanceof ApiError && /PASSWORD/.test(error.code)) {
        setErrors({ next: error.message });
      } else {
        setFormError(errorMessage(error));
      }
    } finally {
      setPending(false);
    }
  }

  return (
    <Card aria-labelledby="password-title">
      <CardHeader>
        <div>
          <CardTitle id="password-title">Change password</CardTitle>
          <CardDescription>Changing it signs you out on every other device.</CardDescription>
        </div>
      </CardHeader>
      <CardContent>
        <Form onSubmit={submit} className="grid max-w-md gap-4">
          <FormError message={formError} />
          <Field
            label="Current password"
            name="current-password"
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={(event) => setCurrent(event.target.value)}
            error={errors.current}
          />
          <Field
            label="New password"
            name="new-password"
            type="password"
            autoComplete="new-password"
            value={next}
            onChange={(event) => setNext(event.target.value)}
            error={errors.next}
            after={<PasswordRules password={next} />}
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
          <Button type="submit" disabled={pending} className="justify-self-start">
            {pending && <Spinner />}
            Change password
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}
