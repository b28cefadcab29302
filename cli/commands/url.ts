import { defineCommand } from "citty";
import { InsightsError } from "../../shared/base/errors.js";
import { EXIT } from "../../shared/base/exit-codes.js";
import { resolvePaths } from "../../shared/base/paths.js";
import { ControlClient } from "../control-client.js";
import { fail, say } from "../output.js";

// The sign-in link of a running daemon, for a browser opened later or elsewhere than `start` ran.
// It carries the token: print it only on request, never from `status`.
export default defineCommand({
  meta: { name: "url", description: "Print the dashboard's sign-in link (it contains the API token); exit 3 when not running" },
  async run() {
    try {
      const client = await ControlClient.tryConnect(resolvePaths().socketFile);
      if (!client) {
        process.stderr.write("insightsctl: gateway-insights is not running\n  Start it with `insightsctl start`, which prints the link.\n");
        process.exit(EXIT.NOT_RUNNING);
      }
      const { url } = await client.call<{ url: string }>("dashboard.url").finally(() => client.close());
      if (!url) throw new InsightsError("CONTROL_PROTOCOL", "the daemon gave no dashboard URL");
      say(url);
    } catch (err) {
      fail(err);
    }
  },
});
