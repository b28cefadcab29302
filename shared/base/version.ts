// The service version (spec: 0.1.0, SemVer). A test keeps it equal to package.json's.
export const VERSION = "0.1.0";
export const PRODUCT = "gateway-insights";
