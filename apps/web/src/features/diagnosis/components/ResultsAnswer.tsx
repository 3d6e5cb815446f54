import Button from 'react-bootstrap/Button';
import { useTranslation } from 'react-i18next';
import type { DiagnosisRow } from '@diagrodl/contracts';
import { LOCALE_TAG, currentLanguage } from '@/lib/i18n.ts';
import { probabilityText } from '../format.ts';
import { outcomeLabel, outcomeOf } from '../outcome.ts';

/** Photos answered in the list; the rest are in their cards below. */
export const ANSWERS_SHOWN = 5;

/**
 * The answer first, right under the results heading: for each photo of this identification its
 * disease and the confidence as a percentage (a refused photo: why), before any button. The cards
 * below (`cardsId`) hold the photo, the heatmap and what to do.
 */
export function ResultsAnswer({ rows, cardsId }: { rows: DiagnosisRow[]; cardsId: string }) {
  const { t } = useTranslation();
  const locale = LOCALE_TAG[currentLanguage()];
  if (rows.length === 0) return null;
  const shown = rows.slice(0, ANSWERS_SHOWN);
  return (
    <div className="results-answer mb-3" data-testid="results-answer">
      <ul className="list-unstyled mb-1">
        {shown.map((row) => {
          const diagnosis = outcomeOf(row) === 'diagnosis';
          return (
            <li key={row.id} className="mb-2" data-testid="answer-item">
              <span
                className={`d-block fs-4 fw-bold lh-sm ${diagnosis ? 'text-success-emphasis' : 'text-danger'}`}
                data-testid="answer-label"
              >
                {outcomeLabel(row, t)}
              </span>
              {diagnosis && (
                <span className="fs-5 text-nowrap" data-testid="answer-confidence">
                  {t('diagnosis.results.confidence', {
                    value: probabilityText(row.probability, locale),
                  })}
                </span>
              )}
              <span className="d-block small text-body-secondary text-break">{row.name_img}</span>
            </li>
          );
        })}
      </ul>
      {rows.length > shown.length && (
        <Button
          variant="link"
          size="sm"
          className="p-0"
          onClick={() => {
            const cards = document.getElementById(cardsId);
            cards?.scrollIntoView();
            cards?.focus();
          }}
          data-testid="answer-more"
        >
          {t('diagnosis.results.answerMore', { count: rows.length - shown.length })}
        </Button>
      )}
    </div>
  );
}
