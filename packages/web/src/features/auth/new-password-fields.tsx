import { Field, type TextBinding } from "../../components/form.tsx";
import { PasswordRules } from "./password-rules.tsx";

/** A new password, its rules checked as it is typed, and the same password again. */
export function NewPasswordFields({ password, confirm }: { password: TextBinding; confirm: TextBinding }) {
  return (
    <>
      <Field
        label="New password"
        name="new-password"
        type="password"
        autoComplete="new-password"
        {...password}
        after={<PasswordRules password={password.value} />}
      />
      <Field
        label="Repeat the new password"
        name="confirm-password"
        type="password"
        autoComplete="new-password"
        {...confirm}
      />
    </>
  );
}
