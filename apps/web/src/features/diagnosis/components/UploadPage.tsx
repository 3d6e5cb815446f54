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
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '@/lib/i18n.ts';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  type PendingImage,
  type ProgressReply,
  ROUTES,
  TAKE_PHOTO_QUERY,
  UPLOAD_MESSAGES,
  UPLOAD_MESSAGES_EN,
} from '@diagrodl/contracts';
import { ConfirmDialog } from '@/components/ConfirmDialog.tsx';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { diagnosisApi } from '../api.ts';
import { DeviceReadiness } from '../device/DeviceReadiness.tsx';
import { useDeviceMode, useDevicePhotos, useObjectUrls, useOwner } from '../device/hooks.ts';
import { type DevicePhoto, deleteDevicePhotos } from '../device/store.ts';
import { humanFileSize, isPreviewable, lastModifiedText } from '../format.ts';
import { type OnePressState, Stopped, identifyWaiting, sendPhotos } from '../identify.ts';
import { errorText, identifyErrorText } from './errors.ts';
import { IdentificationProgress } from './IdentificationProgress.tsx';
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
  /** 'Diagnosticar': which step it is at, and that step's progress. */
  const [onePress, setOnePress] = useState<{
    step: 'send' | 'identify';
    progress: ProgressReply | null;
  } | null>(null);
  const [onePressError, setOnePressError] = useState<string | null>(null);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const takePhoto = params.get(TAKE_PHOTO_QUERY.name) === TAKE_PHOTO_QUERY.value;
  const stop = useRef(new AbortController());

  useEffect(() => {
    const controller = new AbortController();
    stop.current = controller;
    return () => controller.abort();
  }, []);

  // opened to take a photo: the camera field is the next thing to press
  useEffect(() => {
    if (!takePhoto) return;
    cameraRef.current?.focus();
    cameraRef.current?.scrollIntoView({ block: 'center' });
  }, [takePhoto]);

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
    const { failed } = await sendPhotos(
      selection.map((item) => item.file),
      { onDevice, owner },
      (done, total) => setProgress({ done, total }),
    );
    setSelection([]);
    setProgress(null);
    setFailures(failedTexts(failed));
    await refresh();
  };

  const failedTexts = (failed: { file: File; error: unknown }[]) =>
    failed.map(({ file, error }) =>
      t('diagnosis.upload.failed', { name: file.name, detail: errorText(error, t) }),
    );

  /**
   * 'Diagnosticar': sends the photos chosen (kept on the device or uploaded), identifies every
   * photo waiting with the chosen model (or the default one), then opens the results, shown.
   */
  const diagnose = async () => {
    setFailures([]);
    setOnePressError(null);
    const waiting = uploaded.length + kept.length;
    if (selection.length + waiting === 0) {
      setAlert(uploadMessages().noImage);
      return;
    }
    setAlert(null);
    const items = selection;
    setOnePress({ step: 'send', progress: null });
    // the photos this press identifies: those waiting already, and those it sends
    const waitingIds = { server: uploaded.map((u) => u.id), device: kept.map((k) => k.id) };
    const { failed, sent } = await sendPhotos(
      items.map((item) => item.file),
      { onDevice, owner },
      (done, total) => setOnePress({ step: 'send', progress: { state: 'running', done, total } }),
    );
    setSelection([]);
    setFailures(failedTexts(failed));
    if (failed.length === items.length && waiting === 0) {
      setOnePress(null);
      return;
    }
    setOnePress({ step: 'identify', progress: null });
    try {
      const { progress: end, deviceFailed } = await identifyWaiting(
        owner,
        (p) => setOnePress({ step: 'identify', progress: p }),
        { configure: true, signal: stop.current.signal },
      );
      if (end.state === 'done') {
        const notes = [
          ...failedTexts(failed),
          ...(deviceFailed ? [t('diagnosis.device.failed', { count: deviceFailed })] : []),
          ...(end.detail ? [end.detail] : []),
        ];
        const state: OnePressState = {
          show: true,
          notes,
          sent: {
            server: [...waitingIds.server, ...sent.server],
            device: [...waitingIds.device, ...sent.device],
          },
        };
        void navigate(ROUTES.getPredict, { state });
        return;
      }
      setOnePressError(end.detail ?? t('diagnosis.errors.generic', { detail: '' }));
    } catch (err) {
      if (err instanceof Stopped) return;
      setOnePressError(identifyErrorText(err, t));
    }
    setOnePress(null);
    await refresh();
  };
  const busy = progress !== null || onePress !== null;

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
        {/* 'Diagnosticar una hoja' opens this page directly: the model is kept for offline use here too */}
        <DeviceReadiness />
        <div className="d-flex flex-wrap gap-2 align-items-center">
          <Button
            variant="primary"
            size="lg"
            disabled={busy}
            onClick={() => void diagnose()}
            aria-describedby={`${inputId}-one-press`}
            data-testid="diagnose-now"
          >
            {t('diagnosis.upload.diagnose')}
          </Button>
          <Button type="submit" variant="success" disabled={busy}>
            {onDevice ? t('diagnosis.device.keep') : t('diagnosis.upload.send')}
          </Button>
        </div>
        <p className="small text-body-secondary mt-1 mb-0" id={`${inputId}-one-press`}>
          {t('diagnosis.upload.diagnoseHelp')}
        </p>
        <IdentificationProgress
          className="mt-2"
          progress={onePress?.progress ?? null}
          running={onePress !== null}
          label={
            onePress?.step === 'send' && onePress.progress
              ? t('diagnosis.upload.sending', {
                  done: onePress.progress.done,
                  total: onePress.progress.total,
                })
              : undefined
          }
        />
        {onePressError && (
          <Alert variant="danger" role="alert" className="mt-2" data-testid="diagnose-error">
            {onePressError}
          </Alert>
        )}
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
      <ConfirmDialog
        show={toRemove !== null || keptToRemove !== null}
        id="remove-dialog-title"
        title={t('diagnosis.upload.confirmTitle')}
        cancel={t('diagnosis.upload.cancel')}
        confirm={t('diagnosis.upload.confirm')}
        onCancel={() => {
          setToRemove(null);
          setKeptToRemove(null);
        }}
        onConfirm={() => void confirmRemove()}
      >
        <p className="mb-0">{uploadMessages().confirmRemove}</p>
        {toRemove && <p className="small text-body-secondary mb-0">{toRemove.name_img}</p>}
        {keptToRemove && <p className="small text-body-secondary mb-0">{keptToRemove.name}</p>}
      </ConfirmDialog>
    </section>
  );
}
