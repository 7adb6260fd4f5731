import { useEffect, useId, useRef, type ReactNode } from 'react';
import './ConfirmDialog.css';

/**
 * A yes/no question in a native modal dialog: focus stays inside, Escape or the cancel button says no,
 * and focus goes back to where it was when the dialog opened. Renders nothing while closed.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  danger = false,
  busy = false,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const ids = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const d = dialog.current;
    if (!open || !d) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!d.open) d.showModal();
    // The safe answer has the focus: Enter never deletes by accident.
    cancel.current?.focus();
    return () => {
      if (d.open) d.close();
      if (opener?.isConnected) opener.focus();
    };
  }, [open]);

  if (!open) return null;
  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby={`${ids}-title`}
      aria-describedby={children ? `${ids}-body` : undefined}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id={`${ids}-title`}>{title}</h2>
      {children ? (
        <div id={`${ids}-body`} className="confirm-body">
          {children}
        </div>
      ) : null}
      <div className="confirm-actions">
        <button ref={cancel} type="button" className="secondary" onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </button>
        <button type="button" className={danger ? 'danger' : undefined} onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
