import { useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link, useLocation, useNavigate } from "@tanstack/react-router";
import { AuthLayout } from "../components/auth-layout.tsx";
import { ErrorState, LoadingState } from "../components/page-states.tsx";
import { Button } from "../components/ui/button.tsx";
import { signOut } from "../features/auth/auth-api.ts";
import { authorizationQuery } from "../features/connected-apps/connected-apps-api.ts";
import { ConsentForm } from "../features/connected-apps/consent-form.tsx";
import { ApiError, errorMessage } from "../lib/api.ts";
import { meQuery } from "../lib/queries.ts";

const route = getRouteApi("/connect");

/**
 * The consent page an application (Claude, ChatGPT, an IDE's agent) sends a member to when it asks
 * to connect to Sightline's MCP server: `/oauth/authorize` hands the request here with its
 * parameters, and the preview checks it (ADR 0038). A focused card, as the sign-in pages, with
 * nothing else to click.
 */
export function ConnectPage() {
  const params = route.useSearch();
  const href = useLocation({ select: (location) => location.href });
  const preview = useQuery(authorizationQuery(params));
  const me = useQuery(meQuery);
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  async function switchAccount() {
    try {
      await signOut();
    } finally {
      queryClient.clear();
      void navigate({ to: "/sign-in", search: { redirect: href } });
    }
  }

  const footer = me.data && (
    <>
      Signed in as <span className="font-medium text-foreground">{me.data.user.email}</span>.{" "}
      <Button variant="link" className="h-auto p-0" onClick={switchAccount}>
        Use another account
      </Button>
    </>
  );

  if (preview.isPending) {
    return (
      <AuthLayout title="Connect an application">
        <LoadingState label="Reading the request…" />
      </AuthLayout>
    );
  }
  if (preview.isError) {
    // What is wrong with the request itself (an unknown application, a redirect it did not register,
    // no PKCE) is said here and never sent back to it: the member can only start again from the application.
    if (preview.error instanceof ApiError && preview.error.status === 400) {
      return (
        <AuthLayout title="This connection request cannot be used" footer={footer}>
          <p className="text-sm" role="alert">
            {errorMessage(preview.error)}
          </p>
          <p className="mt-3 text-sm text-muted-foreground">
            Nothing was connected. Go back to the application and start connecting again.
          </p>
          <Button asChild variant="outline" className="mt-6 w-full">
            <Link to="/">Go to Sightline</Link>
          </Button>
        </AuthLayout>
      );
    }
    return (
      <AuthLayout title="Connect an application" footer={footer}>
        <ErrorState error={preview.error} title="The request could not be read" onRetry={() => preview.refetch()} />
      </AuthLayout>
    );
  }

  const { client } = preview.data;
  return (
    <AuthLayout
      title={`${client.name} wants to connect to Sightline`}
      description={
        <>
          “{client.name}” is the name the application gave itself: Sightline cannot check it. Allow only if you started
          connecting from {client.name} just now.
          {client.uri && (
            <span className="mt-1 block break-all">
              Its website, by its own account: <span className="text-foreground">{client.uri}</span>
            </span>
          )}
        </>
      }
      footer={footer}
    >
      <ConsentForm params={params} preview={preview.data} />
    </AuthLayout>
  );
}
