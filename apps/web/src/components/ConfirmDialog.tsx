import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';

/**
 * The question asked before something that cannot be undone (removing a photo, forgetting
 * diagnoses, deleting the account): a titled dialog, 'cancel' and a red 'confirm'. While `busy`,
 * neither button nor closing the dialog does anything.
 */
export function ConfirmDialog({
  show,
  id,
  title,
  children,
  cancel,
  confirm,
  busy = false,
  onCancel,
  onConfirm,
}: {
  show: boolean;
  /** Id of the title, which names the dialog. */
  id: string;
  title: string;
  children: ReactNode;
  cancel: string;
  confirm: string;
  busy?: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal show={show} onHide={() => !busy && onCancel()} centered aria-labelledby={id}>
      <Modal.Header closeButton closeLabel={t('dialog.close')}>
        <Modal.Title as="h2" className="h5" id={id}>
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{children}</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" disabled={busy} onClick={onCancel}>
          {cancel}
        </Button>
        <Button variant="danger" disabled={busy} onClick={onConfirm}>
          {confirm}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
