import { api } from "../../lib/api.ts";
import type { SignupResult } from "../../lib/types.ts";

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;

/** What is wrong with a new password, or undefined when it meets the server's rule (10 to 128 characters). */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN) return `Use at least ${PASSWORD_MIN} characters.`;
  if (password.length > PASSWORD_MAX) return `Use at most ${PASSWORD_MAX} characters.`;
  return undefined;
}

export interface SignupInput {
  name: string;
  email: string;
  password: string;
  workspace_name?: string;
  invitation?: string;
  setup_code?: string;
}

export function signUp(input: SignupInput): Promise<SignupResult> {
  return api<SignupResult>("/signup", { method: "POST", body: input, on401: "throw" });
}

export function signIn(email: string, password: string): Promise<unknown> {
  return api("/auth/sign-in/email", { method: "POST", body: { email, password }, on401: "throw" });
}

export function signOut(): Promise<unknown> {
  return api("/auth/sign-out", { method: "POST", on401: "throw" });
}

export function requestPasswordReset(email: string): Promise<unknown> {
  return api("/auth/request-password-reset", {
    method: "POST",
    body: { email, redirectTo: "/reset-password" },
    on401: "throw",
  });
}

export function resetPassword(token: string, newPassword: string): Promise<unknown> {
  return api("/auth/reset-password", { method: "POST", body: { token, newPassword }, on401: "throw" });
}
