// Status words to colour tones. The tones are CSS classes (styles/components.css) whose colours
// are defined per theme, so a status reads the same in dark and light.
export type Tone = "ok" | "warn" | "err" | "info" | "neutral" | "accent";

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
