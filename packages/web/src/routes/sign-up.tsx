import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { AuthLayout } from "../components/auth-layout.tsx";
import { ErrorState, LoadingState } from "../components/page-states.tsx";
import { Button } from "../components/ui/button.tsx";
import { SignupForm } from "../features/auth/signup-form.tsx";
import { setupQuery } from "../lib/queries.ts";

/** Open sign-up (SIGHTLINE_OPEN_SIGNUP=true): a new account with a workspace of its own. */
export function SignUpPage() {
  const setup = useQuery(setupQuery);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const footer = (
    <>
      Already have an account?{" "}
      <Link to="/sign-in" className="font-medium text-primary underline underline-offset-4">
        Sign in
      </Link>
    </>
  );

  if (setup.isPending) {
    return (
      <AuthLayout title="Create an account">
        <LoadingState />
      </AuthLayout>
    );
  }
  if (setup.isError) {
    return (
      <AuthLayout title="Create an account">
        <ErrorState error={setup.error} onRetry={() => setup.refetch()} />
      </AuthLayout>
    );
  }
  if (!setup.data.open_signup && !setup.data.needs_setup) {
    return (
      <AuthLayout title="Sign-up is by invitation" footer={footer}>
        <p className="text-sm text-muted-foreground">
          This Sightline server does not take new sign-ups. Ask an admin of your team's workspace to invite you: the
          invitation brings you back here with everything set up.
        </p>
        <Button asChild variant="outline" className="mt-6 w-full">
          <Link to="/sign-in">Go to sign in</Link>
        </Button>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout
      title="Create an account"
      description="You get a workspace of your own, and can invite your team to it."
      footer={footer}
    >
      <SignupForm
        withWorkspace
        submitLabel="Create account"
        onDone={(result) => {
          queryClient.clear();
          void navigate({ to: "/w/$workspaceId", params: { workspaceId: result.workspace_id } });
        }}
      />
    </AuthLayout>
  );
}
