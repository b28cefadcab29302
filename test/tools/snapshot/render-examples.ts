// Writes the README's example cards, docs/images/card-<detail>-<theme>-<lang>.png, from the
// example inputs (fixed data and clock, so a re-run only changes them when the design does):
//
//   node --import tsx test/tools/snapshot/render-examples.ts
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../../../shared/base/package-root.js";
import { buildCardModel } from "../../../shared/snapshot/build-model.js";
import { EXAMPLE_NOW, exampleInputs } from "../../helpers/example-inputs.js";
import type { SnapshotDetail, SnapshotLang, SnapshotTheme } from "../../../shared/snapshot/params.js";
import { renderCard } from "../../../shared/snapshot/render.js";

const LOOKS: Array<[SnapshotDetail, SnapshotTheme, SnapshotLang]> = [
  ["compact", "dark", "en"],
  ["standard", "dark", "en"],
  ["full", "dark", "en"],
  ["standard", "light", "en"],
  ["standard", "dark", "zh"],
  ["full", "light", "zh"],
];

const out = join(packageRoot(), "docs", "images");
mkdirSync(out, { recursive: true });
for (const [detail, theme, lang] of LOOKS) {
  const model = buildCardModel(exampleInputs("24h"), { detail, range: "24h", theme, lang, generatedAt: EXAMPLE_NOW, demo: false, degradedSources: [] });
  const file = join(out, `card-${detail}-${theme}-${lang}.png`);
  writeFileSync(file, await renderCard(model, "png"));
  console.log(file);
}
