import Table from 'react-bootstrap/Table';
import { useTranslation } from 'react-i18next';
import {
  type Interval,
  REFUSAL_SETS,
  type ReliabilityRow,
  type ReliabilitySet,
  fieldRowOf,
} from '@diagrodl/contracts';
import { formatNumber, formatPercent } from '@/lib/format.ts';
import { currentLanguage } from '@/lib/i18n.ts';

const refusal = (set: ReliabilitySet) => (REFUSAL_SETS as readonly ReliabilitySet[]).includes(set);

/**
 * How often the chosen model is right, set by set, as its card measured it on photos it never
 * trained on (GET /diagrodl/models/ `reliability`): the lab photos, real field photos (validation
 * and held-out), lab leaves made field-like, photos that are not tomato leaves and other crops'
 * leaves. Shown on /Custom under the model selector, so that a grower sees before uploading how far
 * a field diagnosis can be trusted. The summary above the table reads the field set that stands
 * for "on field photos" (contracts fieldRowOf: the held-out photos when the card has them).
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
  /** A dash on screen, 'no medido' for a screen reader (a plain span's aria-label is not read). */
  const notMeasured = (
    <>
      <span aria-hidden="true">—</span>
      <span className="visually-hidden">{t('diagnosis.custom.reliability.notMeasured')}</span>
    </>
  );
  const cell = (x: number | undefined, i?: Interval) =>
    x === undefined ? (
      notMeasured
    ) : (
      <>
        {pct(x)}
        {ci(i)}
      </>
    );
  const field = fieldRowOf(rows);
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
                {refusal(r.set) ? (
                  <td className="text-end" colSpan={3}>
                    {r.refusedShare === undefined
                      ? notMeasured
                      : t('diagnosis.custom.reliability.refused', { value: pct(r.refusedShare) })}
                    {ci(r.refusedCi95)}
                    {/* of every photo of the set: wraps under the figure on a phone */}
                    {r.notLeafShare !== undefined && (
                      <span className="d-block small" data-testid="not-leaf-share">
                        {t('diagnosis.custom.reliability.notLeafShare', {
                          value: pct(r.notLeafShare),
                        })}
                      </span>
                    )}
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
