// The CLI's `--provider` help names every registered provider: the list comes from the registry,
// so a new provider appears without editing each command (it was written by hand and missed
// Gemini CLI). Expected names are the schema's Provider enum, lower-cased words read from the
// registry's identities, and each command's own help text.
import { test } from "uvu";
import * as assert from "uvu/assert";
import exportCommand from "../cli/commands/export.js";
import usageCommand from "../cli/commands/usage.js";
import { PROVIDER_IDENTITIES } from "../shared/providers/registry.js";

for (const [name, command] of [["usage", usageCommand], ["export", exportCommand]] as const) {
  test(`insightsctl ${name} --provider lists every provider`, async () => {
    const args = typeof command.args === "function" ? await command.args() : await command.args;
    const description = (args as Record<string, { description?: string }> | undefined)?.provider?.description ?? "";
    for (const p of PROVIDER_IDENTITIES) assert.ok(description.includes(p.name), `${name}: ${description} lacks ${p.name}`);
  });
}

test.run();
