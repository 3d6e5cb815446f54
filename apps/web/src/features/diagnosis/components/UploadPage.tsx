import {
  type ChangeEvent,
  type ComponentProps,
  type RefObject,
  type FormEvent,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '@/lib/i18n.ts';
import { Link } from 'react-router';
import {
  type PendingImage,
  ROUTES,
  UPLOAD_MESSAGES,
  UPLOAD_MESSAGES_EN,
} from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { diagnosisApi } from '../api.ts';
import { useDeviceMode, useDevicePhotos, useObjectUrls, useOwner } from '../device/hooks.ts';
import { keepOnDevice } from '../device/run.ts';
import { type DevicePhoto, deleteDevicePhotos } from '../device/store.ts';
import { humanFileSize, isPreviewable, lastModifiedText } from '../format.ts';
import { errorText } from './errors.ts';
import { PhotoTable, RemoveButton, Thumb } from './PhotoTable.tsx';
import { PhotoTips } from './PhotoTips.tsx';
import { CropDialog } from './CropDialog.tsx';

/** A picked file as the original's preview list showed it. */
interface PreviewItem {
  id: string;
  file: File;
  filename: string;
  filetype: string;
  fileimage: string | null;
  datetime: string;
  filesize: string;
  /** Cut to the leaf in the crop dialog (the file is the cropped copy). */
  cropped?: boolean;
}

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

function FileIcon() {
  return (
    <svg width="48" height="48" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="#5c6b60" d="M6 2h9l5 5v15H6zM14 3v5h5" />
    </svg>
  );
}

/** A labelled file input that hands each pick to `onPick`. */
function FileField({
  id,
  label,
  inputRef,
  onPick,
  ...input
}: {
  id: string;
  label: string;
  inputRef: RefObject<HTMLInputElement | null>;
  onPick: (e: ChangeEvent<HTMLInputElement>) => void;
} & Omit<ComponentProps<'input'>, 'id' | 'ref' | 'type' | 'onChange' | 'size' | 'value'>) {
  return (
    <Form.Group className="mb-3">
      <Form.Label htmlFor={id}>{label}</Form.Label>
      <Form.Control
        id={id}
        ref={inputRef}
        type="file"
        onChange={(e) => onPick(e as ChangeEvent<HTMLInputElement>)}
        {...input}
      />
    </Form.Group>
  );
}

/**
 * /upload: pick photos (gallery or, on a phone, the camera), preview them, upload, manage the
 * uploaded list. Offline (or when the person chooses it) the photos are kept on the device and
 * identified there.
 */
/** The specification's upload texts, or their English twins on the English page. */
const uploadMessages = () => (currentLanguage() === 'en' ? UPLOAD_MESSAGES_EN : UPLOAD_MESSAGES);

export default function UploadPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('diagnosis.upload.title'));
  const inputId = useId();
  const cameraId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const cameraRef = useRef<HTMLInputElement>(null);
  const owner = useOwner();
  const { onDevice, preferred, setPreferred, online } = useDeviceMode();
  const { photos } = useDevicePhotos();
  const kept = (photos ?? []).filter((p) => p.status === 'pending' && p.inWorkingSet);
  const keptUrls = useObjectUrls(Object.fromEntries(kept.map((p) => [p.id, p.photo])));
  const [keptToRemove, setKeptToRemove] = useState<DevicePhoto | null>(null);
  const [selection, setSelection] = useState<PreviewItem[]>([]);
  const [uploaded, setUploaded] = useState<PendingImage[]>([]);
  const [alert, setAlert] = useState<string | null>(null);
  const [failures, setFailures] = useState<string[]>([]);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [toRemove, setToRemove] = useState<PendingImage | null>(null);
  const [toCrop, setToCrop] = useState<PreviewItem | null>(null);

  const refresh = useCallback(async () => {
    if (!navigator.onLine) return;
    try {
      setUploaded(await diagnosisApi.pending());
    } catch (err) {
      setFailures([errorText(err, t)]);
    }
  }, [t]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const onPick = async (e: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(e.target.files ?? []);
    setAlert(null);
    const items = await Promise.all(
      files.map(async (file) => ({
        id: crypto.randomUUID(),
        file,
        filename: file.name,
        filetype: file.type || '—',
        fileimage: isPreviewable(file.name) ? await readDataUrl(file) : null,
        datetime: lastModifiedText(file.lastModified),
        filesize: humanFileSize(file.size),
      })),
    );
    setSelection((s) => [...s, ...items]);
    if (inputRef.current) inputRef.current.value = '';
    if (cameraRef.current) cameraRef.current.value = '';
  };

  /** The picked photo replaced by its cropped copy (same row, name and date). */
  const onCropped = async (file: File) => {
    const item = toCrop!;
    const fileimage = isPreviewable(file.name) ? await readDataUrl(file) : null;
    setSelection((s) =>
      s.map((x) =>
        x.id === item.id
          ? {
              ...x,
              file,
              filetype: file.type,
              fileimage,
              filesize: humanFileSize(file.size),
              cropped: true,
            }
          : x,
      ),
    );
    setToCrop(null);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setFailures([]);
    if (selection.length === 0) {
      setAlert(uploadMessages().noImage);
      return;
    }
    setAlert(null);
    const items = selection;
    const failed: string[] = [];
    setProgress({ done: 0, total: items.length });
    for (const [i, item] of items.entries()) {
      try {
        if (onDevice) await keepOnDevice(owner, item.file);
        else await diagnosisApi.upload(item.file);
      } catch (err) {
        failed.push(
          t('diagnosis.upload.failed', { name: item.filename, detail: errorText(err, t) }),
        );
      }
      setProgress({ done: i + 1, total: items.length });
    }
    setSelection([]);
    setProgress(null);
    setFailures(failed);
    await refresh();
  };

  const confirmRemove = async () => {
    if (keptToRemove) {
      await deleteDevicePhotos([keptToRemove.id]).catch((err: unknown) =>
        setFailures([errorText(err, t)]),
      );
      setKeptToRemove(null);
      return;
    }
    if (!toRemove) return;
    try {
      await diagnosisApi.removePending(toRemove.id);
    } catch (err) {
      setFailures([errorText(err, t)]);
    }
    setToRemove(null);
    await refresh();
  };

  return (
    <section>
      <h1 className="h2">{t('diagnosis.upload.title')}</h1>
      <PhotoTips />
      <Form onSubmit={(e) => void onSubmit(e)} noValidate>
        <FileField
          id={inputId}
          label={t('diagnosis.upload.pick')}
          inputRef={inputRef}
          onPick={(e) => void onPick(e)}
          multiple
          accept="image/jpeg,image/png,image/webp,.jpg,.jpeg,.png,.webp"
          aria-describedby={alert ? `${inputId}-alert` : undefined}
        />
        <FileField
          id={cameraId}
          label={t('diagnosis.upload.camera')}
          inputRef={cameraRef}
          onPick={(e) => void onPick(e)}
          accept="image/*"
          capture="environment"
          data-testid="camera-input"
        />
        {alert && (
          <Alert variant="danger" role="alert" id={`${inputId}-alert`} data-testid="upload-alert">
            {alert}
          </Alert>
        )}

        <h2 className="h5">{t('diagnosis.upload.selected')}</h2>
        {selection.length === 0 ? (
          <p className="text-body-secondary">{t('diagnosis.upload.none')}</p>
        ) : (
          <PhotoTable
            testId="selection-list"
            columns={['image', 'name', 'type', 'date', 'size', 'actions']}
            items={selection}
            rowIds
            cells={(item) => (
              <>
                <td>
                  {item.fileimage ? (
                    <Thumb src={item.fileimage} alt={item.filename} />
                  ) : (
                    <FileIcon />
                  )}
                </td>
                <td className="text-break">
                  {item.filename}
                  {item.cropped && (
                    <span className="badge text-bg-secondary ms-2" data-testid="cropped-badge">
                      {t('diagnosis.upload.crop.done')}
                    </span>
                  )}
                </td>
                <td>{item.filetype}</td>
                <td>{item.datetime}</td>
                <td>{item.filesize}</td>
                <td>
                  <div className="d-flex flex-wrap gap-1">
                    <Button size="sm" variant="outline-secondary" onClick={() => setToCrop(item)}>
                      {t('diagnosis.upload.crop.button')}
                      <span className="visually-hidden">: {item.filename}</span>
                    </Button>
                    <RemoveButton
                      label={t('diagnosis.upload.removeSelected')}
                      name={item.filename}
                      onClick={() => setSelection((s) => s.filter((x) => x.id !== item.id))}
                    />
                  </div>
                </td>
              </>
            )}
          />
        )}
        <Form.Check
          type="switch"
          id={`${inputId}-device`}
          className="mb-2"
          label={t('diagnosis.device.choose')}
          checked={onDevice}
          disabled={!online}
          onChange={(e) => setPreferred(e.target.checked)}
          data-testid="device-mode"
        />
        {onDevice && (
          <p className="small text-body-secondary" data-testid="device-mode-note">
            {online && preferred
              ? t('diagnosis.device.chosenNote')
              : t('diagnosis.device.offlineNote')}
          </p>
        )}
        <Button type="submit" variant="success" disabled={progress !== null}>
          {onDevice ? t('diagnosis.device.keep') : t('diagnosis.upload.send')}
        </Button>
        <div role="status" aria-live="polite" className="mt-2">
          {progress && t('diagnosis.upload.sending', progress)}
        </div>
        {failures.length > 0 && (
          <Alert variant="danger" role="alert" className="mt-2" data-testid="upload-failures">
            <ul className="mb-0">
              {failures.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
          </Alert>
        )}
      </Form>

      <h2 className="h5 mt-4">{t('diagnosis.upload.uploaded')}</h2>
      {kept.length > 0 && (
        <PhotoTable
          testId="device-list"
          caption={t('diagnosis.device.keptCaption')}
          columns={['image', 'name', 'size', 'actions']}
          items={kept}
          cells={(item) => (
            <>
              <td>
                <Thumb src={keptUrls[item.id]} alt={item.name} />
              </td>
              <td className="text-break">
                {item.name}{' '}
                <span className="badge text-bg-secondary">
                  {t('diagnosis.device.onThisDevice')}
                </span>
              </td>
              <td>{humanFileSize(item.size)}</td>
              <td>
                <RemoveButton name={item.name} onClick={() => setKeptToRemove(item)} />
              </td>
            </>
          )}
        />
      )}
      {uploaded.length === 0 ? (
        kept.length === 0 && (
          <p className="text-body-secondary">{t('diagnosis.upload.noneUploaded')}</p>
        )
      ) : (
        <PhotoTable
          testId="uploaded-list"
          columns={['id', 'image', 'name', 'size', 'actions']}
          items={uploaded}
          cells={(item) => (
            <>
              <td>{item.id}</td>
              <td>
                <Thumb src={item.url} alt={item.name_img} lazy />
              </td>
              <td className="text-break">{item.name_img}</td>
              <td>{humanFileSize(item.size)}</td>
              <td>
                <div className="d-flex flex-wrap gap-1">
                  <a
                    className="btn btn-sm btn-outline-secondary"
                    href={item.url}
                    download={item.name_img}
                  >
                    {t('diagnosis.upload.download')}
                    <span className="visually-hidden">: {item.name_img}</span>
                  </a>
                  <RemoveButton name={item.name_img} onClick={() => setToRemove(item)} />
                </div>
              </td>
            </>
          )}
        />
      )}

      {uploaded.length + kept.length > 0 ? (
        <Link className="btn btn-primary btn-lg mt-2" to={ROUTES.predictRows}>
          {t('diagnosis.upload.identify')}
        </Link>
      ) : (
        <Button variant="primary" size="lg" className="mt-2" disabled aria-disabled="true">
          {t('diagnosis.upload.identify')}
        </Button>
      )}

      <CropDialog
        file={toCrop?.file ?? null}
        onCancel={() => setToCrop(null)}
        onCropped={(f) => void onCropped(f)}
      />
      <Modal
        show={toRemove !== null || keptToRemove !== null}
        onHide={() => {
          setToRemove(null);
          setKeptToRemove(null);
        }}
        centered
        aria-labelledby="remove-dialog-title"
      >
        <Modal.Header closeButton>
          <Modal.Title as="h2" className="h5" id="remove-dialog-title">
            {t('diagnosis.upload.confirmTitle')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="mb-0">{uploadMessages().confirmRemove}</p>
          {toRemove && <p className="small text-body-secondary mb-0">{toRemove.name_img}</p>}
          {keptToRemove && <p className="small text-body-secondary mb-0">{keptToRemove.name}</p>}
        </Modal.Body>
        <Modal.Footer>
          <Button
            variant="secondary"
            onClick={() => {
              setToRemove(null);
              setKeptToRemove(null);
            }}
          >
            {t('diagnosis.upload.cancel')}
          </Button>
          <Button variant="danger" onClick={() => void confirmRemove()}>
            {t('diagnosis.upload.confirm')}
          </Button>
        </Modal.Footer>
      </Modal>
    </section>
  );
}
