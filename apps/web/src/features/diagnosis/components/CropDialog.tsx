import { type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { type CropBox, MIN_SIDE, clampBox, cropFile, moveBox } from '../crop.ts';

/** The square first offered: centred, 60 % of the photo's shorter side. */
const START: CropBox = { cx: 0.5, cy: 0.5, side: 0.6 };
/** One arrow key press moves the square by this fraction of the photo; + and − resize by it. */
const STEP = 0.02;

/**
 * Crops a picked photo to the leaf before upload (crop.ts says why). The square moves by dragging
 * it, by touching or clicking where the leaf is, or with the arrow keys; its size by the slider or
 * + and −. "Recortar" hands back the cropped copy; nothing changes on "Cancelar".
 */
export function CropDialog({
  file,
  onCancel,
  onCropped,
}: {
  file: File | null;
  onCancel: () => void;
  onCropped: (cropped: File) => void;
}) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  const [size, setSize] = useState<{ w: number; h: number } | null>(null);
  const [box, setBox] = useState<CropBox>(START);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const frame = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; y: number; box: CropBox } | null>(null);

  useEffect(() => {
    setSize(null);
    setBox(START);
    setError(null);
    if (!file) return;
    const u = URL.createObjectURL(file);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [file]);

  const fit = (b: CropBox) => (size ? clampBox(b, size.w, size.h) : b);

  /** The pointer's position as fractions of the shown photo. */
  const at = (e: PointerEvent) => {
    const r = frame.current!.getBoundingClientRect();
    return { x: (e.clientX - r.left) / r.width, y: (e.clientY - r.top) / r.height };
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (!size) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    const p = at(e);
    const s = (box.side * Math.min(size.w, size.h)) / 2;
    const inside = Math.abs(p.x - box.cx) * size.w <= s && Math.abs(p.y - box.cy) * size.h <= s;
    // outside the square: the square goes where the person pointed, then follows the pointer
    const start = inside ? box : fit({ ...box, cx: p.x, cy: p.y });
    setBox(start);
    drag.current = { ...p, box: start };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current || !size) return;
    const p = at(e);
    setBox(moveBox(drag.current.box, p.x - drag.current.x, p.y - drag.current.y, size.w, size.h));
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (!size) return;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-STEP, 0],
      ArrowRight: [STEP, 0],
      ArrowUp: [0, -STEP],
      ArrowDown: [0, STEP],
    };
    const m = moves[e.key];
    if (m) setBox(moveBox(box, m[0], m[1], size.w, size.h));
    else if (e.key === '+' || e.key === '=') setBox(fit({ ...box, side: box.side + STEP }));
    else if (e.key === '-') setBox(fit({ ...box, side: box.side - STEP }));
    else return;
    e.preventDefault();
  };

  const onConfirm = async () => {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      onCropped(await cropFile(file, box));
    } catch {
      setError(t('diagnosis.upload.crop.failed'));
    } finally {
      setBusy(false);
    }
  };

  const s = size ? box.side * Math.min(size.w, size.h) : 0;
  const square = size && {
    left: `${((box.cx * size.w - s / 2) / size.w) * 100}%`,
    top: `${((box.cy * size.h - s / 2) / size.h) * 100}%`,
    width: `${(s / size.w) * 100}%`,
    height: `${(s / size.h) * 100}%`,
  };

  return (
    <Modal show={file !== null} onHide={onCancel} centered aria-labelledby="crop-dialog-title">
      <Modal.Header closeButton closeLabel={t('dialog.close')}>
        <Modal.Title as="h2" className="h5" id="crop-dialog-title">
          {t('diagnosis.upload.crop.title')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="small" id="crop-dialog-help">
          {t('diagnosis.upload.crop.help')}
        </p>
        <div className="text-center">
          <div
            ref={frame}
            className="position-relative d-inline-block overflow-hidden"
            style={{ touchAction: 'none', cursor: 'move', userSelect: 'none' }}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={() => (drag.current = null)}
            onPointerCancel={() => (drag.current = null)}
            data-testid="crop-frame"
          >
            {url && (
              <img
                src={url}
                alt={file?.name ?? ''}
                draggable={false}
                className="d-block"
                style={{ maxWidth: '100%', maxHeight: '60vh' }}
                onError={() => setError(t('diagnosis.upload.crop.failed'))}
                onLoad={(e) => {
                  const im = e.currentTarget;
                  setSize({ w: im.naturalWidth, h: im.naturalHeight });
                  setBox(clampBox(START, im.naturalWidth, im.naturalHeight));
                }}
              />
            )}
            {square && (
              <div
                role="group"
                tabIndex={0}
                aria-label={t('diagnosis.upload.crop.box')}
                aria-describedby="crop-dialog-help"
                onKeyDown={onKeyDown}
                className="position-absolute border border-2 border-white"
                style={{ ...square, boxShadow: '0 0 0 9999px rgba(0, 0, 0, 0.5)' }}
                data-testid="crop-box"
              />
            )}
          </div>
        </div>
        <Form.Group className="mt-3" controlId="crop-size">
          <Form.Label>{t('diagnosis.upload.crop.size')}</Form.Label>
          <Form.Range
            min={Math.round(MIN_SIDE * 100)}
            max={100}
            value={Math.round(box.side * 100)}
            disabled={!size}
            onChange={(e) => setBox(fit({ ...box, side: Number(e.target.value) / 100 }))}
          />
        </Form.Group>
        {error && (
          <Alert variant="danger" role="alert" className="mb-0">
            {error}
          </Alert>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel}>
          {t('diagnosis.upload.cancel')}
        </Button>
        <Button variant="success" onClick={() => void onConfirm()} disabled={!size || busy}>
          {t('diagnosis.upload.crop.confirm')}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
