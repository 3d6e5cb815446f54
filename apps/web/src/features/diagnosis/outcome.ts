import type { TFunction } from 'i18next';
import type { DiagnosisRow } from '@diagrodl/contracts';

type Row = Pick<DiagnosisRow, 'accepted' | 'reason' | 'predict'>;

/**
 * The three outcomes of a photo: a diagnosis (accepted), 'not_leaf' (the model says it is not a
 * tomato leaf) or 'low_confidence'. A row from an older server without `reason` counts as
 * 'low_confidence' when not accepted.
 */
export function outcomeOf(row: Row): 'diagnosis' | 'not_leaf' | 'low_confidence' {
  if (row.accepted) return 'diagnosis';
  return row.reason === 'not_leaf' ? 'not_leaf' : 'low_confidence';
}

/** The visible label: the disease (as the server named it) or the outcome in the page's language. */
export function outcomeLabel(row: Row, t: TFunction): string {
  const outcome = outcomeOf(row);
  if (outcome === 'not_leaf') return t('diagnosis.results.notLeaf');
  if (outcome === 'low_confidence') return t('diagnosis.results.notRecognised');
  return row.predict;
}
