import Card from 'react-bootstrap/Card';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { DiagnosisRow } from '@diagrodl/contracts';
import { currentLanguage, LOCALE_TAG } from '@/lib/i18n.ts';
import { probabilityText } from '../format.ts';
import { outcomeLabel, outcomeOf } from '../outcome.ts';

/** One diagnosed image: photo, heatmap, label, probability, top 3 and what to do. */
export function DiagnosisCard({ row, badge }: { row: DiagnosisRow; badge?: string | undefined }) {
  const { t } = useTranslation();
  const locale = LOCALE_TAG[currentLanguage()];
  const outcome = outcomeOf(row);
  return (
    <Card
      className="h-100 diagnosis-card"
      data-testid="diagnosis-row"
      data-accepted={row.accepted}
      data-reason={outcome === 'diagnosis' ? undefined : outcome}
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
          />
          <figcaption className="small text-center">{t('diagnosis.results.heatmap')}</figcaption>
        </figure>
      </div>
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
          <Link to={row.page} className="small">
            {t('diagnosis.results.whatToDo', { name: row.predict })}
          </Link>
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
      </Card.Body>
    </Card>
  );
}
