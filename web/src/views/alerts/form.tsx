// Small form pieces for the alert editors: a labelled field with its hint and the error the daemon
// gave for it, and the mapping from the daemon's BAD_USER_INPUT messages ("rule.window: one of
// hour, day, week, month for cost") to the field they name.
import type { ComponentChildren, JSX } from "preact";
import type { ApiError } from "../../api/errors";

export interface FieldError {
  /** The field the daemon named (`window`, `scope.source`, `url`); null for the form as a whole. */
  field: string | null;
  message: string;
}

/** Which field a daemon error is about: `rule.<path>: <message>` / `channel.<path>: <message>`; an existing id is the id's. */
export function fieldErrorOf(err: ApiError): FieldError {
  const detail = err.detail ?? "";
  const m = /^(?:rule|channel)\.([A-Za-z][\w.]*?)(?:\.\d+)?: (.+)$/s.exec(detail);
  if (m) return { field: m[1] as string, message: m[2] as string };
  if (/exists already/.test(detail)) return { field: "id", message: detail };
  return { field: null, message: detail };
}

export function Field(p: { id: string; label: string; hint?: string | null; error?: string | null; children: ComponentChildren; wide?: boolean }): JSX.Element {
  return (
    <div class={`field${p.wide ? " field-wide" : ""}${p.error ? " has-error" : ""}`} data-field={p.id}>
      <label for={p.id}>{p.label}</label>
      {p.children}
      {p.error ? (
        <p class="field-error" id={`${p.id}-error`} role="alert" data-testid={`error-${p.id}`}>
          {p.error}
        </p>
      ) : p.hint ? (
        <p class="field-hint" id={`${p.id}-hint`}>
          {p.hint}
        </p>
      ) : null}
    </div>
  );
}

/** aria attributes that tie an input to its hint or error. */
export function described(id: string, error: string | null | undefined, hint?: string | null): Record<string, string | boolean> {
  if (error) return { "aria-invalid": true, "aria-describedby": `${id}-error` };
  return hint ? { "aria-describedby": `${id}-hint` } : {};
}

/** A number typed in a field: null when empty, NaN when it is not one. */
export function numberOf(text: string): number | null {
  const v = text.trim();
  if (!v) return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : Number.NaN;
}
