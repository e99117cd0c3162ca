import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { AuthLayout } from "../components/auth-layout.tsx";
import { SignupForm } from "../features/auth/signup-form.tsx";

/** First run: no account exists yet; this one owns the first workspace. */
export function SetupPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (
    <AuthLayout
      title="Create your account"
      description="Welcome to Sightline. This first account owns the workspace and can invite the rest of your team."
    >
      <SignupForm
        withWorkspace
        withSetupCode
        submitLabel="Create account"
        onDone={(result) => {
          queryClient.clear();
          void navigate({ to: "/w/$workspaceId", params: { workspaceId: result.workspace_id } });
        }}
      />
    </AuthLayout>
  );
}
