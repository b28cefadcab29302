// Gateway operations started from this page. Kept outside the Control view so a restart keeps
// running (and its result stays) while the user looks at another tab.
import { signal } from "@preact/signals";
import { ApiError } from "../api/errors";
import { runOperation, type GatewayOperation } from "../api/queries";
import type { OperationResult } from "../api/types";

export type OperationState =
  | { status: "idle" }
  | { status: "running"; op: GatewayOperation; startedAt: number }
  | { status: "done"; op: GatewayOperation; result: OperationResult; finishedAt: number }
  | { status: "failed"; op: GatewayOperation; error: ApiError; finishedAt: number };

export const operation = signal<OperationState>({ status: "idle" });

export async function startOperation(op: GatewayOperation): Promise<void> {
  if (operation.value.status === "running") return;
  operation.value = { status: "running", op, startedAt: Date.now() };
  try {
    const result = await runOperation(op);
    operation.value = { status: "done", op, result, finishedAt: Date.now() };
  } catch (e) {
    operation.value = { status: "failed", op, error: e instanceof ApiError ? e : new ApiError("http", null, null), finishedAt: Date.now() };
  }
}
