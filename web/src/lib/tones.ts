// Status words to colour tones. The tones are CSS classes (styles/components.css) whose colours
// are defined per theme, so a status reads the same in dark and light.
import type { GatewayState, HealthVerdict } from "../api/types";

export type Tone = "ok" | "warn" | "err" | "info" | "neutral" | "accent";

/** The daemon's one health verdict (the same /health and `insightsctl status` print). */
export function verdictTone(v: HealthVerdict): Tone {
  return v === "OK" ? "ok" : v === "DEGRADED" ? "warn" : v === "UNHEALTHY" ? "err" : "neutral";
}

/** The gateway's label: demo mode is never "down" (nor red), a gateway not probed yet is grey. */
export function gatewayTone(s: GatewayState): Tone {
  return s === "UP" ? "ok" : s === "DOWN" ? "err" : s === "DEMO" ? "accent" : "neutral";
}

/** A plan's rate-limit window: warn from 80 % used, critical at 100 % (the daemon's rate-limit check). */
export function quotaTone(usedPercent: number): Tone {
  return usedPercent >= 100 ? "err" : usedPercent >= 80 ? "warn" : "ok";
}

export function healthTone(s: string): Tone {
  return s === "HEALTHY" || s === "PASS" ? "ok" : s === "DEGRADED" || s === "WARN" ? "warn" : s === "UNHEALTHY" || s === "FAIL" ? "err" : "neutral";
}

export function sessionTone(s: string): Tone {
  return s === "ACTIVE" ? "ok" : s === "IDLE" ? "info" : s === "FAILED" ? "err" : "neutral";
}

export function sourceTone(s: string): Tone {
  return s === "CONNECTED" ? "ok" : s === "INITIALIZING" ? "info" : s === "DISCONNECTED" ? "warn" : s === "ERROR" ? "err" : "neutral";
}

export function runTone(s: string | null): Tone {
  if (!s) return "neutral";
  const v = s.toLowerCase();
  if (v === "ok" || v === "success" || v === "succeeded") return "ok";
  if (v === "error" || v === "failed" || v === "timeout" || v === "killed") return "err";
  if (v === "running") return "info";
  if (v === "skipped") return "warn";
  return "neutral";
}

export function levelTone(level: string): Tone {
  const v = level.toUpperCase();
  return v === "ERROR" || v === "FATAL" ? "err" : v === "WARN" ? "warn" : v === "INFO" ? "info" : "neutral";
}

export function eventTone(type: string): Tone {
  return type === "error" ? "err" : type === "warning" ? "warn" : type === "restart" ? "info" : "neutral";
}
