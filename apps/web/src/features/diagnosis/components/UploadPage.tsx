import {
  type ChangeEvent,
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
import { Link, useSearchParams } from 'react-router';
import {
  type PendingImage,
  ROUTES,
  TAKE_PHOTO_QUERY,
  UPLOAD_MESSAGES,
  UPLOAD_MESSAGES_EN,
} from '@diagrodl/contracts';
import { ConfirmDialog } from '@/components/ConfirmDialog.tsx';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { currentLanguage } from '@/lib/i18n.ts';
import { diagnosisApi } from '../api.ts';
import { DeviceReadiness } from '../device/DeviceReadiness.tsx';
import { useDeviceMode, useDevicePhotos, useOwner } from '../device/hooks.ts';
import { type DevicePhoto, deleteDevicePhotos } from '../device/store.ts';
import { sendPhotos } from '../identify.ts';
import { CropDialog } from './CropDialog.tsx';
import { errorText } from './errors.ts';
import { FileField } from './FileField.tsx';
import { IdentificationProgress } from './IdentificationProgress.tsx';
import { PhotoTips } from './PhotoTips.tsx';
import { type PreviewItem, SelectionTable, croppedPreview, previewOf } from './SelectionTable.tsx';
import { useOnePress } from './useOnePress.ts';
import { WaitingTables } from './WaitingTables.tsx';

/** The specification's upload texts, or their English twins on the English page. */
const uploadMessages = () => (currentLanguage() === 'en' ? UPLOAD_MESSAGES_EN : UPLOAD_MESSAGES);

/**
 * /upload: pick photos (gallery or, on a phone, the camera), preview them, and 'Diagnosticar':
 * the one primary action, which sends, identifies and opens the results. Under it, smaller, the
 * specification's step-by-step buttons (upload, then identify) and the uploaded list. Offline (or
 * when the person chooses it) the photos are kept on the device and identified there; the page
 * downloads the on-device model only when the person chooses that or asks for it (its size said).
 */
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
  const [keptToRemove, setKeptToRemove] = useState<DevicePhoto | null>(null);
  const [selection, setSelection] = useState<PreviewItem[]>([]);
  const [uploaded, setUploaded] = useState<PendingImage[]>([]);
  const [alert, setAlert] = useState<string | null>(null);
  const [failures, setFailures] = useState<string[]>([]);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [toRemove, setToRemove] = useState<PendingImage | null>(null);
  const [toCrop, setToCrop] = useState<PreviewItem | null>(null);
  const [params] = useSearchParams();
  const takePhoto = params.get(TAKE_PHOTO_QUERY.name) === TAKE_PHOTO_QUERY.value;

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

  const failedTexts = (failed: { file: File; error: unknown }[]) =>
    failed.map(({ file, error }) =>
      t('diagnosis.upload.failed', { name: file.name, detail: errorText(error, t) }),
    );

  const onePress = useOnePress({
    files: selection.map((item) => item.file),
    uploaded,
    kept,
    onDevice,
    owner,
    noImage: () => setAlert(uploadMessages().noImage),
    onSent: (failed) => {
      setSelection([]);
      setFailures(failedTexts(failed));
    },
    failedTexts,
    refresh,
  });

  const onPick = async (e: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(e.target.files ?? []);
    setAlert(null);
    const items = await Promise.all(files.map(previewOf));
    setSelection((s) => [...s, ...items]);
    if (inputRef.current) inputRef.current.value = '';
    if (cameraRef.current) cameraRef.current.value = '';
  };

  /** The picked photo replaced by its cropped copy (same row, name and date). */
  const onCropped = async (file: File) => {
    const item = toCrop!;
    const cropped = await croppedPreview(item, file);
    setSelection((s) => s.map((x) => (x.id === item.id ? cropped : x)));
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

  const diagnose = () => {
    setFailures([]);
    setAlert(null);
    void onePress.diagnose();
  };
  const busy = progress !== null || onePress.step !== null;

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

  const step = onePress.step;
  const secondary = 'btn btn-sm btn-outline-secondary';
  return (
    <section>
      <h1 className="h2">{t('diagnosis.upload.title')}</h1>
      <PhotoTips foldOnPhone />
      <Form onSubmit={(e) => void onSubmit(e)} noValidate>
        <FileField
          id={inputId}
          label={t('diagnosis.upload.pick')}
          button={t('diagnosis.upload.pickButton')}
          inputRef={inputRef}
          onPick={(e) => void onPick(e)}
          multiple
          accept="image/jpeg,image/png,image/webp,.jpg,.jpeg,.png,.webp"
          aria-describedby={alert ? `${inputId}-alert` : undefined}
        />
        <FileField
          id={cameraId}
          label={t('diagnosis.upload.camera')}
          button={t('diagnosis.upload.cameraButton')}
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
        <SelectionTable
          items={selection}
          onCrop={setToCrop}
          onRemove={(item) => setSelection((s) => s.filter((x) => x.id !== item.id))}
        />
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
        {/* nothing downloaded by itself: the model comes when asked for, or with the switch above */}
        <DeviceReadiness wanted={preferred} />

        {/* the one primary action */}
        <Button
          variant="primary"
          size="lg"
          disabled={busy}
          onClick={diagnose}
          aria-describedby={`${inputId}-one-press`}
          data-testid="diagnose-now"
        >
          {t('diagnosis.upload.diagnose')}
        </Button>
        <p className="small text-body-secondary mt-1 mb-0" id={`${inputId}-one-press`}>
          {t('diagnosis.upload.diagnoseHelp')}
        </p>
        <IdentificationProgress
          className="mt-2"
          progress={step?.progress ?? null}
          running={step !== null}
          label={
            step?.step === 'send' && step.progress
              ? t('diagnosis.upload.sending', {
                  done: step.progress.done,
                  total: step.progress.total,
                })
              : undefined
          }
        />
        {onePress.error && (
          <Alert variant="danger" role="alert" className="mt-2" data-testid="diagnose-error">
            {onePress.error}
          </Alert>
        )}

        {/* the specification's two steps, one at a time: secondary */}
        <div
          className="mt-3 d-flex flex-wrap gap-2 align-items-center"
          role="group"
          aria-labelledby={`${inputId}-steps`}
          data-testid="upload-steps"
        >
          <span className="small text-body-secondary w-100" id={`${inputId}-steps`}>
            {t('diagnosis.upload.steps')}
          </span>
          <Button type="submit" variant="outline-secondary" size="sm" disabled={busy}>
            {onDevice ? t('diagnosis.device.keep') : t('diagnosis.upload.send')}
          </Button>
          {uploaded.length + kept.length > 0 ? (
            <Link className={secondary} to={ROUTES.predictRows}>
              {t('diagnosis.upload.identify')}
            </Link>
          ) : (
            <Button variant="outline-secondary" size="sm" disabled aria-disabled="true">
              {t('diagnosis.upload.identify')}
            </Button>
          )}
        </div>
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
      <WaitingTables
        kept={kept}
        uploaded={uploaded}
        onRemoveKept={setKeptToRemove}
        onRemoveUploaded={setToRemove}
      />

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
