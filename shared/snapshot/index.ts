// The status card (design §6): parameters, data model / JSON format, renderer. REST, MCP and the
// CLI import from here. Importing this module does not load satori or resvg; the first render does.
export { buildCardModel, CARD_LIMITS, mergeAgentEvents, type CardBuildParams } from "./build-model.js";
export { CARD_SCHEMA_VERSION, cardJsonSchema, cardModelSchema, type CardModel } from "./card-model.js";
export { emptyInputs, EXAMPLE_NOW, exampleInputs } from "./example-inputs.js";
export type { AgentCardInputs, CardInputs, ChannelInput, GatewayInput, HealthInput, ResourcesInput, SourceInput } from "./inputs.js";
export { CATALOG, LANGS, t, type Lang, type MessageKey } from "./messages.js";
export {
  METRICS_RANGE,
  parseSnapshotParams,
  RANGE_MS,
  SNAPSHOT_CONTENT_TYPES,
  SNAPSHOT_DETAILS,
  SNAPSHOT_FORMATS,
  SNAPSHOT_LANGS,
  SNAPSHOT_PARAM_NAMES,
  SNAPSHOT_RANGES,
  SNAPSHOT_RULES,
  SNAPSHOT_THEMES,
  snapshotFileName,
  SnapshotParamError,
  type ParseOptions,
  type SnapshotDetail,
  type SnapshotFormat,
  type SnapshotLang,
  type SnapshotParamRules,
  type SnapshotParams,
  type SnapshotRange,
  type SnapshotTheme,
} from "./params.js";
export { PNG_SCALE, renderCard, type CardImageFormat, type RenderOptions } from "./render.js";
export { warmRenderer } from "./warm.js";
