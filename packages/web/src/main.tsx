import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "./index.css";
import { ApiError, setUnauthenticatedHandler } from "./lib/api.ts";
import { isPublicPath } from "./lib/navigation.ts";
import { createAppRouter } from "./router.tsx";

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      // A 4xx will answer the same again; retry only what may pass the second time.
      retry: (failures, error) =>
        failures < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
    },
  },
});

const router = createAppRouter(queryClient);

// A session that expired or was signed out elsewhere: forget what was loaded and sign in again, then come back.
setUnauthenticatedHandler(() => {
  const { pathname, href } = router.state.location;
  if (isPublicPath(pathname)) return;
  queryClient.clear();
  void router.navigate({ to: "/sign-in", search: { redirect: href } });
});

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
