import { type FormEvent, useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  CROPS,
  LEVELS,
  type LoadedModel,
  MODEL_TYPES,
  MODEL_VERSIONS,
  ROUTES,
  fieldTop1Of,
  reliabilityOf,
} from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { formatNumber } from '@/lib/format.ts';
import { currentLanguage } from '@/lib/i18n.ts';
import { diagnosisApi } from '../api.ts';
import { DeviceReadiness } from '../device/DeviceReadiness.tsx';
import { cachedDeviceCard } from '../device/model.ts';
import { configFor, preselectedVersion } from '../model-choice.ts';
import { errorText } from './errors.ts';
import { ModelReliability } from './ModelReliability.tsx';

/** Offline only the model the device holds can run. */
const DEVICE_MODEL: LoadedModel = {
  id: 'mobilenet',
  modeloVersion: 'tomato_leaf_cnn_mobilenet',
  label: 'MobileNet v1',
  testAccuracy: null,
  fieldAccuracy: null,
  reliability: [],
};

/** Offline: the device's model, with its figures when its card is cached. */
async function deviceModels(): Promise<LoadedModel[]> {
  const card = await cachedDeviceCard();
  if (!card) return [DEVICE_MODEL];
  return [
    {
      ...DEVICE_MODEL,
      testAccuracy: card.metrics.accuracy,
      fieldAccuracy: fieldTop1Of(card),
      reliability: reliabilityOf(card),
    },
  ];
}

/**
 * /Custom: model configuration; 'Subir imágenes' is enabled once the server accepts it, and at
 * once while the model shown is the one the server already holds for the person (coming back by
 * 'Iniciar nueva identificación' keeps the accepted configuration).
 */
export default function CustomPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('diagnosis.custom.title'));
  const [loaded, setLoaded] = useState<LoadedModel[] | null>(null);
  const [version, setVersion] = useState('');
  const [accepted, setAccepted] = useState(false);
  /** The configuration the server holds for the person, while its model is loaded. */
  const [stored, setStored] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const online = navigator.onLine;
    // the stored choice is preselected, and stays accepted; without it (or offline) the default
    // is preselected and waits for 'Enviar configuración'
    const storedChoice = online
      ? diagnosisApi.config().then(
          ({ config }) => config?.modelo_version,
          () => undefined,
        )
      : Promise.resolve(undefined);
    Promise.all([online ? diagnosisApi.models() : deviceModels(), storedChoice])
      .then(([models, choice]) => {
        setLoaded(models);
        // the list is read again in a new language (its texts): a choice already made stays
        const first = preselectedVersion(models, choice);
        if (first) setVersion((current) => current || first);
        setStored(first !== undefined && first === choice ? choice : undefined);
      })
      .catch((err: unknown) => setError(errorText(err, t)));
  }, [t]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      // offline the device identifies with its MobileNet; nothing to tell the server
      if (navigator.onLine || version !== DEVICE_MODEL.modeloVersion)
        await diagnosisApi.configure(configFor(version));
      setAccepted(true);
      setStored(version);
    } catch (err) {
      setAccepted(false);
      setError(errorText(err, t));
    } finally {
      setBusy(false);
    }
  };

  /** Accepted by this page's press, or the stored configuration still chosen. */
  const kept = !accepted && version !== '' && version === stored;
  const ready = accepted || kept;
  const lang = currentLanguage();
  const info = (value: string) => {
    const v = MODEL_VERSIONS.find((m) => m.value === value)!;
    return loaded?.find((m) => m.id === v.modelId);
  };
  const chosen = version ? info(version) : undefined;
  const versions = MODEL_VERSIONS.filter((v) => v.modelId !== 'ensemble' || info(v.value));

  return (
    <section>
      <h1 className="h2">{t('diagnosis.custom.title')}</h1>
      <div style={{ maxWidth: 640 }}>
        <DeviceReadiness />
      </div>
      <Form onSubmit={(e) => void onSubmit(e)} className="custom-form" style={{ maxWidth: 640 }}>
        <Form.Group className="mb-3" controlId="custom-crop">
          <Form.Label>{t('diagnosis.custom.crop')}</Form.Label>
          <Form.Select name="cultivo" defaultValue="tomate">
            {CROPS.map((c) => (
              <option key={c} value={c} disabled={c !== 'tomate'}>
                {t(`diagnosis.custom.options.${c}`)}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group className="mb-3" controlId="custom-level">
          <Form.Label>{t('diagnosis.custom.level')}</Form.Label>
          <Form.Select name="nivel" defaultValue="hoja">
            {LEVELS.map((c) => (
              <option key={c} value={c} disabled={c !== 'hoja'}>
                {t(`diagnosis.custom.options.${c}`)}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group className="mb-3" controlId="custom-type">
          <Form.Label>{t('diagnosis.custom.modelType')}</Form.Label>
          <Form.Select name="tipo_modelo" defaultValue="DL">
            {MODEL_TYPES.map((c) => (
              <option key={c} value={c} disabled={c !== 'DL'}>
                {t(`diagnosis.custom.options.${c}`)}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group className="mb-3" controlId="custom-model">
          <Form.Label>{t('diagnosis.custom.models')}</Form.Label>
          <Form.Select
            name="modelo_version"
            value={version}
            onChange={(e) => {
              setVersion(e.target.value);
              setAccepted(false);
            }}
          >
            <option value="" disabled>
              {t('diagnosis.custom.choose')}
            </option>
            {versions.map((v) => {
              const m = info(v.value);
              const pct = (x: number) =>
                formatNumber(x, lang, { style: 'percent', maximumFractionDigits: 1 });
              const figures = [
                m?.testAccuracy != null
                  ? t('diagnosis.custom.accuracy', { value: pct(m.testAccuracy) })
                  : null,
                m?.fieldAccuracy != null
                  ? t('diagnosis.custom.fieldAccuracy', { value: pct(m.fieldAccuracy) })
                  : null,
              ].filter((x) => x !== null);
              const extra = !m
                ? ` (${t('diagnosis.custom.notLoaded')})`
                : figures.length
                  ? ` (${figures.join('; ')})`
                  : '';
              return (
                <option key={v.value} value={v.value} disabled={!m}>
                  {/* the server's label names the ensemble's members */}
                  {m?.label ?? v.label}
                  {extra}
                </option>
              );
            })}
          </Form.Select>
        </Form.Group>
        {chosen && <ModelReliability label={chosen.label} rows={chosen.reliability} />}
        <div role="status" aria-live="polite" className="mb-3">
          {accepted && <Alert variant="success">{t('diagnosis.custom.accepted')}</Alert>}
          {kept && (
            <p className="small text-body-secondary mb-0" data-testid="custom-kept">
              {t('diagnosis.custom.kept')}
            </p>
          )}
        </div>
        {error && (
          <Alert variant="danger" role="alert">
            {error}
          </Alert>
        )}
        <div className="d-flex flex-wrap gap-2">
          <Button type="submit" variant="success" disabled={busy || !version}>
            {t('diagnosis.custom.submit')}
          </Button>
          {ready ? (
            <Link className="btn btn-primary" to={ROUTES.upload}>
              {t('diagnosis.custom.next')}
            </Link>
          ) : (
            <Button variant="primary" disabled aria-disabled="true">
              {t('diagnosis.custom.next')}
            </Button>
          )}
        </div>
      </Form>
    </section>
  );
}
