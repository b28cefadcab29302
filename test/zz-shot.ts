import { launchBrowser } from "./helpers/browser.js";
const url = "http://127.0.0.1:41999";
const [, , width = "1280", theme = "dark", lang = "en-US", ...hashes] = process.argv;
const b = await launchBrowser(url, { viewport: { width: Number(width), height: 900 }, colorScheme: theme as "dark" | "light", locale: lang });
try {
  for (const h of hashes) {
    await b.page.goto(`${url}/${h}`);
    await b.page.waitForTimeout(2500);
    const name = h.replace(/[^a-z0-9]+/gi, "_") || "root";
    await b.page.screenshot({ path: `/tmp/gi-dev/shots/${name}-${width}-${theme}.png`, fullPage: true });
    console.log(name);
  }
  console.log(JSON.stringify(b.errors));
} finally {
  await b.close();
}
