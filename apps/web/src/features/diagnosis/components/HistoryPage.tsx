import { useCallback, useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type HistoryItem, ROUTES } from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { currentLanguage, LOCALE_TAG } from '@/lib/i18n.ts';
import { diagnosisApi } from '../api.ts';
import { probabilityText } from '../format.ts';
import { outcomeLabel, outcomeOf } from '../outcome.ts';
import { errorText } from './errors.ts';

/** Past diagnoses (beyond the specification), newest first. */
export default function HistoryPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('diagnosis.history.title'));
  const [rows, setRows] = useState<HistoryItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const locale = LOCALE_TAG[currentLanguage()];

  const load = useCallback(async () => {
    try {
      setRows(await diagnosisApi.history());
    } catch (err) {
      setError(errorText(err, t));
    }
  }, [t]);
  useEffect(() => {
    void load();
  }, [load]);

  const remove = async (id: number) => {
    try {
      await diagnosisApi.removeHistory(id);
      await load();
    } catch (err) {
      setError(errorText(err, t));
    }
  };

  return (
    <section>
      <h1 className="h2">{t('diagnosis.history.title')}</h1>
      <p>{t('diagnosis.history.intro')}</p>
      {error && (
        <Alert variant="danger" role="alert">
          {error}
        </Alert>
      )}
      {rows && rows.length === 0 && <p>{t('diagnosis.history.empty')}</p>}
      {rows && rows.length > 0 && (
        <Table responsive className="align-middle" data-testid="history-table">
          <thead>
            <tr>
              <th scope="col">{t('diagnosis.history.date')}</th>
              <th scope="col">{t('diagnosis.results.photo')}</th>
              <th scope="col">{t('diagnosis.results.label')}</th>
              <th scope="col">{t('diagnosis.results.probability')}</th>
              <th scope="col">{t('diagnosis.results.model')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('diagnosis.history.remove')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-reason={r.accepted ? undefined : outcomeOf(r)}>
                <td>{new Date(r.created_at).toLocaleString(locale)}</td>
                <td>
                  <img src={r.image} alt={r.name_img} width={64} height={64} loading="lazy" />
                </td>
                <td data-testid="history-label">
                  {r.accepted ? <Link to={r.page}>{r.predict}</Link> : outcomeLabel(r, t)}
                  {outcomeOf(r) === 'not_leaf' && (
                    <div className="small text-body-secondary">
                      {t('diagnosis.results.notLeafHint')}
                    </div>
                  )}
                </td>
                <td>{probabilityText(r.probability, locale)}</td>
                <td>{r.modelLabel}</td>
                <td>
                  <Button size="sm" variant="outline-danger" onClick={() => void remove(r.id)}>
                    {t('diagnosis.history.remove')}
                    <span className="visually-hidden">: {r.name_img}</span>
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <Link className="btn btn-success" to={ROUTES.custom}>
        {t('diagnosis.history.start')}
      </Link>
    </section>
  );
}
