import { useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { AuthLayout } from "../components/auth-layout.tsx";
import { FormError } from "../components/form.tsx";
import { ErrorState, LoadingState, Spinner } from "../components/page-states.tsx";
import { Button } from "../components/ui/button.tsx";
import { signOut } from "../features/auth/auth-api.ts";
import { SignInForm } from "../features/auth/signin-form.tsx";
import { SignupForm } from "../features/auth/signup-form.tsx";
import { acceptInvitation, invitationQuery } from "../features/invitations/invitation-api.ts";
import { InvitationSummary } from "../features/invitations/invitation-summary.tsx";
import { errorMessage } from "../lib/api.ts";
import { isNotFound, isUnauthenticated } from "../lib/navigation.ts";
import { meQuery } from "../lib/queries.ts";

const route = getRouteApi("/invite/$token");

export function InvitePage() {
  const { token } = route.useParams();
  const invitation = useQuery(invitationQuery(token));
  const me = useQuery({ ...meQuery, retry: false });
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [mode, setMode] = useState<"sign-up" | "sign-in">();
  const [accepting, setAccepting] = useState(false);
  const [acceptError, setAcceptError] = useState<string>();

  const title = "You're invited to Sightline";
  if (invitation.isPending || me.isPending) {
    return (
      <AuthLayout title={title}>
        <LoadingState label="Opening the invitation…" />
      </AuthLayout>
    );
  }
  if (invitation.isError) {
    return isNotFound(invitation.error) ? (
      <AuthLayout title="This invitation is no longer valid">
        <p className="text-sm text-muted-foreground">
          It has expired, was revoked, or was already used. Ask the person who invited you to send a new one.
        </p>
        <Button asChild variant="outline" className="mt-6 w-full">
          <Link to="/sign-in">Go to sign in</Link>
        </Button>
      </AuthLayout>
    ) : (
      <AuthLayout title={title}>
        <ErrorState error={invitation.error} onRetry={() => invitation.refetch()} />
      </AuthLayout>
    );
  }
  if (me.isError && !isUnauthenticated(me.error)) {
    return (
      <AuthLayout title={title}>
        <ErrorState error={me.error} onRetry={() => me.refetch()} />
      </AuthLayout>
    );
  }

  const preview = invitation.data;
  const user = me.data?.user;

  async function accept() {
    setAccepting(true);
    setAcceptError(undefined);
    try {
      const accepted = await acceptInvitation(token);
      await queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
      void navigate({ to: "/w/$workspaceId", params: { workspaceId: accepted.workspace_id } });
    } catch (error) {
      setAcceptError(errorMessage(error));
      setAccepting(false);
    }
  }

  async function switchAccount() {
    try {
      await signOut();
    } finally {
      queryClient.removeQueries({ queryKey: meQuery.queryKey });
      await me.refetch();
    }
  }

  const description = (
    <>
      {preview.invited_by ? (
        <>
          <strong className="font-medium text-foreground">{preview.invited_by}</strong> invited you
        </>
      ) : (
        "You are invited"
      )}{" "}
      to join <strong className="font-medium text-foreground">{preview.workspace_name}</strong>.
    </>
  );

  if (user) {
    const sameEmail = user.email.toLowerCase() === preview.email.toLowerCase();
    return (
      <AuthLayout title={title} description={description}>
        <div className="grid gap-4">
          <InvitationSummary invitation={preview} />
          {sameEmail ? (
            <>
              <FormError message={acceptError} />
              <Button onClick={accept} disabled={accepting} className="w-full">
                {accepting && <Spinner />}
                Join {preview.workspace_name}
              </Button>
            </>
          ) : (
            <>
              <p className="text-sm">
                You are signed in as <strong>{user.email}</strong>, but this invitation is for{" "}
                <strong>{preview.email}</strong>. Sign out, then sign in or create an account with that address.
              </p>
              <Button variant="outline" onClick={switchAccount} className="w-full">
                Sign out and continue
              </Button>
            </>
          )}
        </div>
      </AuthLayout>
    );
  }

  const current = mode ?? (preview.account_exists ? "sign-in" : "sign-up");
  return (
    <AuthLayout
      title={title}
      description={description}
      footer={
        <Button variant="link" onClick={() => setMode(current === "sign-in" ? "sign-up" : "sign-in")}>
          {current === "sign-in" ? "New to Sightline? Create an account instead" : "Already have an account? Sign in"}
        </Button>
      }
    >
      <div className="grid gap-6">
        <InvitationSummary invitation={preview} />
        {current === "sign-in" ? (
          <>
            <h2 className="text-base font-semibold">Sign in to accept</h2>
            <SignInForm
              email={preview.email}
              onDone={async () => {
                // Signed in now: if joining fails, the page shows the signed-in view with the reason.
                await queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
                await accept();
              }}
            />
          </>
        ) : (
          <>
            <h2 className="text-base font-semibold">Create your account to join</h2>
            <SignupForm
              withWorkspace={false}
              invitation={{ token, email: preview.email }}
              submitLabel={`Create account and join ${preview.workspace_name}`}
              onDone={(result) => {
                queryClient.clear();
                void navigate({ to: "/w/$workspaceId", params: { workspaceId: result.workspace_id } });
              }}
            />
          </>
        )}
      </div>
    </AuthLayout>
  );
}
