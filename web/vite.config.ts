// Builds the dashboard (web/src) into dist/web/, the folder the daemon serves at `/` and
// `/assets/`. Everything the page needs ends up there with a content hash in its name: no CDN,
// no inlined data: URLs (the page's Content-Security-Policy allows only 'self').
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { providerColors } from "./provider-colors.js";

const here = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root: here,
  base: "/",
  publicDir: false,
  // The provider colours come from the registry at build time (provider-colors.ts).
  plugins: [providerColors()],
  // Preact's automatic JSX runtime (the same settings web/tsconfig.json gives the typecheck).
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: fileURLToPath(new URL("../dist/web", import.meta.url)),
    emptyOutDir: true,
    assetsDir: "assets",
    // Fonts and icons stay files: a data: URL would need a looser CSP.
    assetsInlineLimit: 0,
    // The polyfill is an inline script in some setups, and every browser we target has modulepreload.
    modulePreload: { polyfill: false },
    target: "es2022",
    sourcemap: false,
    reportCompressedSize: true,
    chunkSizeWarningLimit: 200,
  },
});
