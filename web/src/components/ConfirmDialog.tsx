// A confirmation in a native modal <dialog>: the browser traps focus, Escape cancels, and the
// page behind is inert. Focus starts on Cancel, the safe choice for a gateway restart.
import type { ComponentChildren, JSX } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { t } from "../i18n/i18n";

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog(p: ConfirmDialogProps): JSX.Element {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (p.open && !d.open) {
      d.showModal();
      cancelRef.current?.focus();
    } else if (!p.open && d.open) d.close();
  }, [p.open]);

  return (
    <dialog
      ref={ref}
      class="dialog"
      aria-labelledby="confirm-title"
      onCancel={(e) => {
        e.preventDefault();
        p.onCancel();
      }}
      onClick={(e) => {
        // A click on the backdrop (the dialog element itself, outside its box) cancels.
        if (e.target === ref.current) p.onCancel();
      }}
    >
      <form
        method="dialog"
        class="dialog-box"
        onSubmit={(e) => {
          e.preventDefault();
          p.onConfirm();
        }}
      >
        <h2 id="confirm-title">{p.title}</h2>
        <div class="dialog-body">{p.children}</div>
        <div class="dialog-actions">
          <button type="button" class="btn" ref={cancelRef} onClick={p.onCancel}>
            {t("action.cancel")}
          </button>
          <button type="submit" class={`btn ${p.danger ? "btn-danger" : "btn-primary"}`} data-testid="confirm-button">
            {p.confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
