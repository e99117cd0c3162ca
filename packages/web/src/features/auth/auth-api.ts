import { appCall } from "../../lib/api.ts";
import type { SignupInput, SignupResult } from "../../lib/types.ts";

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;

/** What is wrong with a new password, or undefined when it meets the server's rule (10 to 128 characters). */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN) return `Use at least ${PASSWORD_MIN} characters.`;
  if (password.length > PASSWORD_MAX) return `Use at most ${PASSWORD_MAX} characters.`;
  return undefined;
}

export function signUp(input: SignupInput): Promise<SignupResult> {
  return appCall("signUp", { body: input }, { on401: "throw" });
}

export function signIn(email: string, password: string): Promise<unknown> {
  return appCall("signIn", { body: { email, password } }, { on401: "throw" });
}

export function signOut(): Promise<unknown> {
  return appCall("signOut", {}, { on401: "throw" });
}

export function requestPasswordReset(email: string): Promise<unknown> {
  return appCall("requestPasswordReset", { body: { email, redirectTo: "/reset-password" } }, { on401: "throw" });
}

export function resetPassword(token: string, newPassword: string): Promise<unknown> {
  return appCall("resetPassword", { body: { token, newPassword } }, { on401: "throw" });
}
