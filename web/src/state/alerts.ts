// The alerts firing now, shared by the banner (which keeps them current) and the alerts tab's count.
import { signal } from "@preact/signals";
import type { ActiveAlert } from "../api/types";

export const activeAlerts = signal<ActiveAlert[]>([]);
