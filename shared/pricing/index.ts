// Provider-neutral pricing of API responses from token counts (design §9, docs/pricing.md).
export { Pricer, priceUsage } from "./pricer.js";
export type { PriceOptions, PricerOptions, Resolution, UnpricedModel } from "./pricer.js";
export { parsePriceOverrides, PriceOverrideSchema, NO_OVERRIDES } from "./overrides.js";
export type { PriceOverrides, PriceOverridesConfig } from "./overrides.js";
export { DATASET_PACKAGE, shippedDataset } from "./dataset.js";
export { modelIdCandidates } from "./model-id.js";
export type { PriceResult, TokenUsage } from "./types.js";
