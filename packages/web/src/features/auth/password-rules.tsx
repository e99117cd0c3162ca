import { CheckIcon, CircleIcon } from "lucide-react";
import { cn } from "../../lib/utils.ts";
import { PASSWORD_MAX, PASSWORD_MIN } from "./auth-api.ts";

/** The password rule, checked as the user types. */
export function PasswordRules({ password }: { password: string }) {
  const longEnough = password.length >= PASSWORD_MIN;
  const tooLong = password.length > PASSWORD_MAX;
  return (
    <ul className="mt-1 grid gap-1">
      <li className={cn("flex items-center gap-1.5", longEnough && !tooLong && "text-success")}>
        {longEnough && !tooLong ? (
          <CheckIcon className="size-3.5" aria-hidden="true" />
        ) : (
          <CircleIcon className="size-3" aria-hidden="true" />
        )}
        {PASSWORD_MIN} to {PASSWORD_MAX} characters
        <span className="sr-only">{longEnough && !tooLong ? "(met)" : "(not met yet)"}</span>
      </li>
      <li className="text-muted-foreground">A phrase of a few words is easy to remember and hard to guess.</li>
    </ul>
  );
}
