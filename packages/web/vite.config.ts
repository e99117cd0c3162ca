import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The server serves dist/ at `/` and falls back to index.html for any other path, so the app
// is built for base `/`. In development, `npm run dev -w @sightline/web` proxies the API paths
// to a server started with `npm start` (SIGHTLINE_DEV_API overrides its address). The server
// refuses writes whose Origin is not its own (CSRF), so the proxy presents the server's origin.
const api = process.env.SIGHTLINE_DEV_API ?? "http://localhost:8080";
const proxy = { target: api, changeOrigin: true, headers: { origin: new URL(api).origin } };

export default defineConfig({
  base: "/",
  plugins: [react(), tailwindcss()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: their own chunks stay cached across upgrades of the app.
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler|use-sync-external-store)[\\/]/ },
            // Charts (recharts and what it brings) and the Markdown renderer are left out: they load with the
            // brand pages that use them (lazy routes), not with the app.
            {
              name: "vendor",
              test: /node_modules[\\/](?!(recharts|d3-[^\\/]+|victory-vendor|@reduxjs|redux|redux-thunk|react-redux|immer|reselect|decimal\.js-light|es-toolkit|eventemitter3|internmap|marked|dompurify)[\\/])/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      "/app/api": proxy,
      "/docs": proxy,
    },
  },
});
