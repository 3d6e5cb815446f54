import { type ReactNode, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type DiagnosisRow, ROUTES, whatToDoHref } from '@diagrodl/contracts';
import { currentLanguage, LOCALE_TAG } from '@/lib/i18n.ts';
import { probabilityText } from '../format.ts';
import { outcomeLabel, outcomeOf } from '../outcome.ts';

/**
 * Whether the model saw only part of the photo: it looks at the centre square (its side the
 * shorter side), so a photo (the heatmap has its shape) more than a pixel from square was cut.
 */
export function isCropped(img: Pick<HTMLImageElement, 'naturalWidth' | 'naturalHeight'>): boolean {
  return img.naturalWidth > 0 && Math.abs(img.naturalWidth - img.naturalHeight) > 1;
}

/** What a refused photo's card offers: another photo (the camera on a phone) or a crop. */
export interface RetryActions {
  onRetake: (file: File) => void;
  onCrop: () => void;
  /** Another photo is being identified again: the buttons wait. */
  busy: boolean;
}

/**
 * One diagnosed image: photo, heatmap, label, probability, top 3 and what to do next: a
 * diagnosis links to its disease page and to the history; a photo not recognised with
 * confidence offers 'Tomar otra foto' and 'Recortar', one that is not a tomato leaf says what
 * the tool diagnoses and offers another photo. `children` ends the card (a progress, say).
 */
export function DiagnosisCard({
  row,
  badge,
  retry,
  children,
}: {
  row: DiagnosisRow;
  badge?: string | undefined;
  retry?: RetryActions | undefined;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const retakeRef = useRef<HTMLInputElement>(null);
  const locale = LOCALE_TAG[currentLanguage()];
  const outcome = outcomeOf(row);
  /** The heatmap's photo is not square: the model saw only its centre square (said under it). */
  const [notSquare, setNotSquare] = useState(false);
  return (
    <Card
      className="h-100 diagnosis-card"
      data-testid="diagnosis-row"
      data-accepted={row.accepted}
      data-reason={outcome === 'diagnosis' ? undefined : outcome}
      data-row-id={row.id}
    >
      <div className="d-flex">
        <figure className="m-0 w-50">
          <img
            src={row.image}
            alt={row.name_img}
            width={224}
            height={224}
            className="img-fluid"
            loading="lazy"
          />
          <figcaption className="small text-center">{t('diagnosis.results.photo')}</figcaption>
        </figure>
        <figure className="m-0 w-50">
          <img
            src={row.heatmap}
            alt={t('diagnosis.results.heatmapAlt', { name: row.name_img })}
            width={224}
            height={224}
            className="img-fluid"
            loading="lazy"
            data-testid="heatmap"
            onLoad={(e) => setNotSquare(isCropped(e.currentTarget))}
          />
          <figcaption className="small text-center">{t('diagnosis.results.heatmap')}</figcaption>
        </figure>
      </div>
      {notSquare && (
        <p className="small text-body-secondary px-3 pt-2 mb-0" data-testid="heatmap-square">
          {t('diagnosis.results.centreSquare')}
        </p>
      )}
      <Card.Body>
        <Card.Title as="h2" className="h6 text-break">
          {row.name_img}
          {badge && (
            <span className="badge text-bg-secondary ms-2" data-testid="row-device">
              {badge}
            </span>
          )}
        </Card.Title>
        <dl className="row mb-2 small">
          <dt className="col-5">{t('diagnosis.results.label')}</dt>
          <dd
            className={`col-7 fw-bold ${row.accepted ? '' : 'text-danger'}`}
            data-testid="row-label"
          >
            {outcomeLabel(row, t)}
          </dd>
          <dt className="col-5">
            {t(
              outcome === 'diagnosis'
                ? 'diagnosis.results.probability'
                : 'diagnosis.results.probabilityTopClass',
            )}
          </dt>
          <dd className="col-7" data-testid="row-probability">
            {probabilityText(row.probability, locale)}
          </dd>
          <dt className="col-5">{t('diagnosis.results.model')}</dt>
          <dd className="col-7">{row.modelLabel}</dd>
        </dl>
        <p className="small mb-1 fw-semibold">{t('diagnosis.results.top3')}</p>
        {outcome !== 'diagnosis' && (
          <p className="small text-body-secondary mb-1" data-testid="row-top3-note">
            {t('diagnosis.results.top3NotDiagnosis')}
          </p>
        )}
        <ol className="small ps-3" data-testid="row-top3">
          {row.top3.map((c) => (
            <li key={c.label}>
              {c.predict}: {probabilityText(c.probability, locale)}
            </li>
          ))}
        </ol>
        {outcome === 'diagnosis' && row.field_photo && (
          <p className="small alert alert-warning py-1 px-2 mb-2" data-testid="row-caution">
            {t('diagnosis.results.fieldPhoto')}
          </p>
        )}
        {outcome === 'diagnosis' && (
          <div className="d-flex flex-wrap column-gap-3 small">
            <Link to={whatToDoHref(row.page)}>
              {t('diagnosis.results.whatToDo', { name: row.predict })}
            </Link>
            <Link to={ROUTES.history} data-testid="row-history">
              {t('diagnosis.results.inHistory')}
              <span className="visually-hidden">: {row.name_img}</span>
            </Link>
          </div>
        )}
        {outcome === 'not_leaf' && (
          <p className="small mb-0" data-testid="row-hint">
            {t('diagnosis.results.notLeafHint')}
          </p>
        )}
        {outcome === 'low_confidence' && (
          <p className="small text-body-secondary mb-0" data-testid="row-hint">
            {t('diagnosis.results.notRecognisedHelp')}
          </p>
        )}
        {outcome !== 'diagnosis' && retry && (
          <div className="d-flex flex-wrap gap-2 mt-2" data-testid="row-actions">
            <Button
              size="sm"
              variant="primary"
              disabled={retry.busy}
              onClick={() => retakeRef.current?.click()}
            >
              {t('diagnosis.results.retake')}
              <span className="visually-hidden">: {row.name_img}</span>
            </Button>
            {/* the camera on a phone, the file chooser elsewhere; the button above opens it */}
            <input
              ref={retakeRef}
              type="file"
              accept="image/*"
              capture="environment"
              hidden
              tabIndex={-1}
              data-testid="retake-input"
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) retry.onRetake(file);
              }}
            />
            {outcome === 'low_confidence' && (
              <Button
                size="sm"
                variant="outline-primary"
                disabled={retry.busy}
                onClick={retry.onCrop}
              >
                {t('diagnosis.results.crop')}
                <span className="visually-hidden">: {row.name_img}</span>
              </Button>
            )}
          </div>
        )}
        {children}
      </Card.Body>
    </Card>
  );
}
