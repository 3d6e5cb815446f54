import Table from 'react-bootstrap/Table';
import { useTranslation } from 'react-i18next';
import type { Interval, ReliabilityRow } from '@diagrodl/contracts';
import { formatNumber, formatPercent } from '@/lib/format.ts';
import { currentLanguage } from '@/lib/i18n.ts';

/**
 * How often the chosen model is right, set by set, as its card measured it on photos it never
 * trained on (GET /diagrodl/models/ `reliability`): the lab photos, real field photos, lab leaves
 * made field-like and photos that are not tomato leaves. Shown on /Custom under the model
 * selector, so that a grower sees before uploading how far a field diagnosis can be trusted.
 */
export function ModelReliability({ label, rows }: { label: string; rows: ReliabilityRow[] }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  if (!rows.length) return null;
  const pct = (x: number) => formatPercent(x, lang);
  /** A 95 % interval under its figure: the range shown, its name read out by screen readers. */
  const ci = (i: Interval | undefined) =>
    i && (
      <span className="d-block small text-body-secondary text-nowrap">
        <span className="visually-hidden">{t('diagnosis.custom.reliability.interval')}: </span>
        {pct(i[0])}–{pct(i[1])}
      </span>
    );
  const cell = (x: number | undefined, i?: Interval) =>
    x === undefined ? (
      <span aria-label={t('diagnosis.custom.reliability.notMeasured')}>—</span>
    ) : (
      <>
        {pct(x)}
        {ci(i)}
      </>
    );
  const field = rows.find((r) => r.set === 'field_val');
  const summary = !field
    ? t('diagnosis.custom.reliability.noField')
    : field.acceptedShare === 0
      ? t('diagnosis.custom.reliability.fieldNoneGiven')
      : field.acceptedShare !== undefined && field.accuracyAccepted !== undefined
        ? t('diagnosis.custom.reliability.fieldSummary', {
            given: pct(field.acceptedShare),
            right: pct(field.accuracyAccepted),
          })
        : null;
  const id = 'model-reliability-title';
  return (
    <section aria-labelledby={id} className="mb-3" data-testid="model-reliability">
      <h2 className="h5" id={id}>
        {t('diagnosis.custom.reliability.title', { model: label })}
      </h2>
      {summary && <p data-testid="field-summary">{summary}</p>}
      {/* scrolls sideways on a phone: a focusable region, so the keyboard can scroll it too */}
      <div className="table-responsive" tabIndex={0} role="region" aria-labelledby={id}>
        <Table size="sm" bordered className="align-middle small">
          <thead>
            <tr>
              <th scope="col">{t('diagnosis.custom.reliability.photos')}</th>
              {(['n', 'top1', 'given', 'rightWhenGiven'] as const).map((k) => (
                <th key={k} scope="col" className="text-end">
                  {t(`diagnosis.custom.reliability.${k}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.set} data-set={r.set}>
                <th scope="row" className="fw-normal">
                  {t(`diagnosis.custom.reliability.sets.${r.set}`)}
                </th>
                <td className="text-end">
                  {formatNumber(r.n, lang, { maximumFractionDigits: 0 })}
                </td>
                {r.set === 'negatives_holdout' ? (
                  <td className="text-end" colSpan={3}>
                    {r.refusedShare === undefined
                      ? '—'
                      : t('diagnosis.custom.reliability.refused', { value: pct(r.refusedShare) })}
                    {ci(r.refusedCi95)}
                  </td>
                ) : (
                  <>
                    <td className="text-end">{cell(r.top1, r.top1Ci95)}</td>
                    <td className="text-end">{cell(r.acceptedShare)}</td>
                    <td className="text-end">{cell(r.accuracyAccepted, r.accuracyAcceptedCi95)}</td>
                  </>
                )}
              </tr>
            ))}
          </tbody>
        </Table>
      </div>
      <p className="small text-body-secondary">{t('diagnosis.custom.reliability.note')}</p>
    </section>
  );
}
