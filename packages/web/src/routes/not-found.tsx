import { Link, useRouter } from "@tanstack/react-router";
import { ErrorState } from "../components/page-states.tsx";
import { Button } from "../components/ui/button.tsx";
import { useTitle } from "../lib/use-title.ts";

export function NotFoundPage() {
  useTitle("Page not found");
  return (
    <main className="mx-auto flex max-w-md flex-col items-start gap-3 px-4 py-16">
      <h1 className="text-xl font-semibold">This page does not exist</h1>
      <p className="text-sm text-muted-foreground">The link may be out of date, or the address mistyped.</p>
      <Button asChild>
        <Link to="/">Go to your workspace</Link>
      </Button>
    </main>
  );
}

/** Shown when a page could not even start (the server unreachable while checking the session). */
export function RouteErrorPage({ error }: { error: unknown }) {
  useTitle("Something went wrong");
  const router = useRouter();
  return (
    <main className="mx-auto flex max-w-md flex-col gap-4 px-4 py-16">
      <h1 className="text-xl font-semibold">Sightline could not open this page</h1>
      <ErrorState error={error} title="The server did not answer as expected" onRetry={() => router.invalidate()} />
    </main>
  );
}
