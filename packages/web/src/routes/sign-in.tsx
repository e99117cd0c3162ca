import { useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { AuthLayout } from "../components/auth-layout.tsx";
import { useHostName } from "../components/host-logo.tsx";
import { SignInForm } from "../features/auth/signin-form.tsx";
import { setupQuery } from "../lib/queries.ts";

const route = getRouteApi("/sign-in");

export function SignInPage() {
  const { redirect } = route.useSearch();
  const navigate = route.useNavigate();
  const queryClient = useQueryClient();
  const setup = useQuery(setupQuery);
  // On an agency's custom host, its name rather than Sightline's.
  const name = useHostName();
  return (
    <AuthLayout
      title={name === undefined ? "Sign in" : `Sign in to ${name}`}
      footer={
        setup.data?.open_signup ? (
          <>
            New here?{" "}
            <Link to="/sign-up" className="font-medium text-primary underline underline-offset-4">
              Create an account
            </Link>
          </>
        ) : (
          "New here? Ask an admin of your team's workspace to invite you."
        )
      }
    >
      <SignInForm
        onDone={() => {
          queryClient.clear();
          void navigate(redirect ? { href: redirect } : { to: "/" });
        }}
      />
    </AuthLayout>
  );
}
