import type { QueryClient } from "@tanstack/react-query";
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  redirect,
} from "@tanstack/react-router";
import { isUnauthenticated, safeRedirect } from "./lib/navigation.ts";
import { type BrandSearch, parseBrandSearch } from "./lib/period.ts";
import { meQuery, setupQuery } from "./lib/queries.ts";
import { AUTHORIZATION_PARAMS, parseSearch, stringifySearch } from "./lib/search-params.ts";
import type { AuthorizationParams } from "./lib/types.ts";
import { AccountPage } from "./routes/account.tsx";
import { AgencyHomePage } from "./routes/agency-home.tsx";
import { AgencyLayout } from "./routes/agency-layout.tsx";
import { AppLayout } from "./routes/app-layout.tsx";
import { BrandEditPage } from "./routes/brand-edit.tsx";
import { BrandLayout } from "./routes/brand-layout.tsx";
import { BrandNewPage } from "./routes/brand-new.tsx";
import { BrandsPage } from "./routes/brands.tsx";
import { ConnectPage } from "./routes/connect.tsx";
import { ForgotPasswordPage } from "./routes/forgot-password.tsx";
import { HomePage } from "./routes/home.tsx";
import { InvitePage } from "./routes/invite.tsx";
import { NotFoundPage, RouteErrorPage } from "./routes/not-found.tsx";
import { ResetPasswordPage } from "./routes/reset-password.tsx";
import { RootLayout } from "./routes/root-layout.tsx";
import { SetupPage } from "./routes/setup.tsx";
import { SignInPage } from "./routes/sign-in.tsx";
import { SignUpPage } from "./routes/sign-up.tsx";
import { WorkspaceLayout } from "./routes/workspace-layout.tsx";
import { WorkspaceSettingsPage } from "./routes/workspace-settings.tsx";

interface RouterContext {
  queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
  errorComponent: RouteErrorPage,
});

// Public pages.

const setupRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/setup",
  beforeLoad: async ({ context }) => {
    const setup = await context.queryClient.fetchQuery(setupQuery);
    if (!setup.needs_setup) throw redirect({ to: "/sign-in" });
  },
  component: SetupPage,
});

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/sign-in",
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => {
    const target = safeRedirect(search.redirect);
    return target ? { redirect: target } : {};
  },
  beforeLoad: async ({ context, search }) => {
    const setup = await context.queryClient.fetchQuery(setupQuery);
    if (setup.needs_setup) throw redirect({ to: "/setup" });
    // Already signed in (a bookmark, the back button): go on to where they were headed.
    const me = await context.queryClient.fetchQuery(meQuery).catch(() => null);
    if (me && search.redirect) throw redirect({ href: search.redirect });
    if (me) throw redirect({ to: "/" });
  },
  component: SignInPage,
});

const signUpRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/sign-up",
  component: SignUpPage,
});

const forgotPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/forgot-password",
  component: ForgotPasswordPage,
});

const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/reset-password",
  validateSearch: (search: Record<string, unknown>): { token?: string; error?: string } => ({
    ...(typeof search.token === "string" && search.token !== "" ? { token: search.token } : {}),
    ...(typeof search.error === "string" && search.error !== "" ? { error: search.error } : {}),
  }),
  component: ResetPasswordPage,
});

const inviteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/invite/$token",
  component: InvitePage,
});

// Pages behind a session: without one, sign in first and come back (the whole address, query and all).

async function requireSession({ context, location }: { context: RouterContext; location: { href: string } }) {
  try {
    await context.queryClient.ensureQueryData(meQuery);
  } catch (error) {
    if (isUnauthenticated(error)) throw redirect({ to: "/sign-in", search: { redirect: location.href } });
    throw error;
  }
}

// An application asks to connect (OAuth, for the MCP server): a card of its own, outside the app's header.
const connectRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/connect",
  validateSearch: (search: Record<string, unknown>): AuthorizationParams =>
    Object.fromEntries(
      AUTHORIZATION_PARAMS.flatMap((name) => (typeof search[name] === "string" ? [[name, search[name]]] : [])),
    ),
  beforeLoad: requireSession,
  component: ConnectPage,
});

// The pages inside the app's header.

const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "_app",
  beforeLoad: requireSession,
  component: AppLayout,
});

const homeRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/",
  component: HomePage,
});

const accountRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/account",
  component: AccountPage,
});

// Every figure's definition, which each figure's hint links to (`/glossary#visibility`).
const glossaryRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/glossary",
  component: lazyRouteComponent(() => import("./routes/glossary.tsx"), "GlossaryPage"),
});

// An agency's pages, for its staff: its clients, its pitches, its staff and branding.
const agencyRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/agency/$agencyId",
  component: AgencyLayout,
});

const agencyHomeRoute = createRoute({
  getParentRoute: () => agencyRoute,
  path: "/",
  component: AgencyHomePage,
});

const agencyPitchesRoute = createRoute({
  getParentRoute: () => agencyRoute,
  path: "/pitches",
  component: lazyRouteComponent(() => import("./routes/agency-pitches.tsx"), "AgencyPitchesPage"),
});

const agencyPitchNewRoute = createRoute({
  getParentRoute: () => agencyRoute,
  path: "/pitches/new",
  component: lazyRouteComponent(() => import("./routes/agency-pitch-new.tsx"), "NewPitchPage"),
});

const agencyPitchRoute = createRoute({
  getParentRoute: () => agencyRoute,
  path: "/pitches/$pitchId",
  component: lazyRouteComponent(() => import("./routes/agency-pitch.tsx"), "PitchPage"),
});

const agencySettingsRoute = createRoute({
  getParentRoute: () => agencyRoute,
  path: "/settings",
  component: lazyRouteComponent(() => import("./routes/agency-settings.tsx"), "AgencySettingsPage"),
});

const workspaceRoute = createRoute({
  getParentRoute: () => appRoute,
  path: "/w/$workspaceId",
  component: WorkspaceLayout,
});

const brandsRoute = createRoute({
  getParentRoute: () => workspaceRoute,
  path: "/",
  component: BrandsPage,
});

const brandNewRoute = createRoute({
  getParentRoute: () => workspaceRoute,
  path: "/brands/new",
  component: BrandNewPage,
});

// One brand's pages share the period and engine filters, kept in the URL (lib/period.ts).
const brandRoute = createRoute({
  getParentRoute: () => workspaceRoute,
  path: "/brands/$brandId",
  validateSearch: (search: Record<string, unknown>): BrandSearch => parseBrandSearch(search),
  component: BrandLayout,
});

const brandOverviewRoute = createRoute({
  getParentRoute: () => brandRoute,
  path: "/",
  component: lazyRouteComponent(() => import("./routes/brand-overview.tsx"), "BrandOverviewPage"),
});

const brandPromptsRoute = createRoute({
  getParentRoute: () => brandRoute,
  path: "/prompts",
  component: lazyRouteComponent(() => import("./routes/brand-prompts.tsx"), "BrandPromptsPage"),
});

const brandSourcesRoute = createRoute({
  getParentRoute: () => brandRoute,
  path: "/sources",
  component: lazyRouteComponent(() => import("./routes/brand-sources.tsx"), "BrandSourcesPage"),
});

const brandCompetitorsRoute = createRoute({
  getParentRoute: () => brandRoute,
  path: "/competitors",
  component: lazyRouteComponent(() => import("./routes/brand-competitors.tsx"), "BrandCompetitorsPage"),
});

const brandAudiencesRoute = createRoute({
  getParentRoute: () => brandRoute,
  path: "/audiences",
  component: lazyRouteComponent(() => import("./routes/brand-audiences.tsx"), "BrandAudiencesPage"),
});

const brandConversationsRoute = createRoute({
  getParentRoute: () => brandRoute,
  path: "/conversations",
  component: lazyRouteComponent(() => import("./routes/brand-conversations.tsx"), "BrandConversationsPage"),
});

const brandConversationRoute = createRoute({
  getParentRoute: () => brandRoute,
  path: "/conversations/$conversationId",
  component: lazyRouteComponent(() => import("./routes/brand-conversation.tsx"), "BrandConversationPage"),
});

const brandOpportunitiesRoute = createRoute({
  getParentRoute: () => brandRoute,
  path: "/opportunities",
  component: lazyRouteComponent(() => import("./routes/brand-opportunities.tsx"), "BrandOpportunitiesPage"),
});

const brandTrafficRoute = createRoute({
  getParentRoute: () => brandRoute,
  path: "/traffic",
  component: lazyRouteComponent(() => import("./routes/brand-traffic.tsx"), "BrandTrafficPage"),
});

const brandExperimentsRoute = createRoute({
  getParentRoute: () => brandRoute,
  path: "/experiments",
  component: lazyRouteComponent(() => import("./routes/brand-experiments.tsx"), "BrandExperimentsPage"),
});

const brandExperimentRoute = createRoute({
  getParentRoute: () => brandRoute,
  path: "/experiments/$changeId",
  component: lazyRouteComponent(() => import("./routes/brand-experiment.tsx"), "BrandExperimentPage"),
});

const brandMonitoringRoute = createRoute({
  getParentRoute: () => brandRoute,
  path: "/monitoring",
  component: lazyRouteComponent(() => import("./routes/brand-monitoring.tsx"), "BrandMonitoringPage"),
});

const brandAnalysesRoute = createRoute({
  getParentRoute: () => brandRoute,
  path: "/analyses",
  component: lazyRouteComponent(() => import("./routes/brand-analyses.tsx"), "BrandAnalysesPage"),
});

const brandAnalysisRoute = createRoute({
  getParentRoute: () => brandRoute,
  path: "/analyses/$analysisId",
  component: lazyRouteComponent(() => import("./routes/brand-analysis.tsx"), "BrandAnalysisPage"),
});

const brandEditRoute = createRoute({
  getParentRoute: () => brandRoute,
  path: "/edit",
  component: BrandEditPage,
});

export interface AnswersSearch extends BrandSearch {
  prompt?: string;
  mentioned?: "yes" | "no";
}

function parseAnswersSearch(search: Record<string, unknown>): AnswersSearch {
  return {
    ...parseBrandSearch(search),
    ...(typeof search.prompt === "string" && search.prompt !== "" ? { prompt: search.prompt.slice(0, 2000) } : {}),
    ...(search.mentioned === "yes" || search.mentioned === "no" ? { mentioned: search.mentioned } : {}),
  };
}

const brandAnswersRoute = createRoute({
  getParentRoute: () => brandRoute,
  path: "/answers",
  validateSearch: parseAnswersSearch,
  component: lazyRouteComponent(() => import("./routes/brand-answers.tsx"), "BrandAnswersPage"),
});

// An answer keeps the list's filters, for the way back.
const brandAnswerRoute = createRoute({
  getParentRoute: () => brandRoute,
  path: "/answers/$resultId",
  validateSearch: parseAnswersSearch,
  component: lazyRouteComponent(() => import("./routes/brand-answer.tsx"), "BrandAnswerPage"),
});

const workspaceSettingsRoute = createRoute({
  getParentRoute: () => workspaceRoute,
  path: "/settings",
  component: WorkspaceSettingsPage,
});

const routeTree = rootRoute.addChildren([
  setupRoute,
  signInRoute,
  signUpRoute,
  forgotPasswordRoute,
  resetPasswordRoute,
  inviteRoute,
  connectRoute,
  appRoute.addChildren([
    homeRoute,
    accountRoute,
    glossaryRoute,
    agencyRoute.addChildren([
      agencyHomeRoute,
      agencyPitchesRoute,
      agencyPitchNewRoute,
      agencyPitchRoute,
      agencySettingsRoute,
    ]),
    workspaceRoute.addChildren([
      brandsRoute,
      brandNewRoute,
      brandRoute.addChildren([
        brandOverviewRoute,
        brandPromptsRoute,
        brandAnswersRoute,
        brandAnswerRoute,
        brandSourcesRoute,
        brandCompetitorsRoute,
        brandAudiencesRoute,
        brandConversationsRoute,
        brandConversationRoute,
        brandOpportunitiesRoute,
        brandTrafficRoute,
        brandExperimentsRoute,
        brandExperimentRoute,
        brandMonitoringRoute,
        brandAnalysesRoute,
        brandAnalysisRoute,
        brandEditRoute,
      ]),
      workspaceSettingsRoute,
    ]),
  ]),
]);

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    // An OAuth request's parameters stay the strings that came (lib/search-params.ts).
    parseSearch,
    stringifySearch,
    defaultPreload: "intent",
    // Data is cached by TanStack Query; the router need not cache loader results too.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
  });
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
