// How a status-line command in Claude Code's settings.json is told to be ours: it runs
// `insightsctl statusline`, by the bin's name on PATH (`insightsctl`), by its file
// (`.../dist/cli/insightsctl.cjs`), or by the ES module entry an earlier version installed
// (`.../dist/cli/main.js`); each path possibly single-quoted. Read by the install (cli) and by
// the daemon's "why no plan windows" probe.
export const OUR_STATUSLINE = /(insightsctl(\.cjs)?|cli\/main\.js)'? statusline/;
