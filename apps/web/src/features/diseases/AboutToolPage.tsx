import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ENDPOINTS,
  type HealthReply,
  type ReliabilityRow,
  fieldRowOf,
  inSelectorOrder,
} from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { callApi } from '@/lib/api-client.ts';
import { formatPercent } from '@/lib/format.ts';
import { type AboutContent, useContent } from './content.ts';
import { ContentSections, PageHeader, PageSection } from './components/ContentSections.tsx';
import { PageLayout } from './components/PageLayout.tsx';
import { ReferencesSection } from './components/References.tsx';
import { Blocks, plain } from './components/RichText.tsx';
import { ToolIconLink } from './components/ToolIconLink.tsx';

type ModelsState =
  { status: 'loading' } | { status: 'error' } | { status: 'ok'; models: HealthReply['models'] };

/**
 * The models the server has loaded and their measured test accuracy (GET /api/health, which
 * lists the refused ones too: they are not offered, so not shown).
 */
function useLoadedModels(): ModelsState {
  const [state, setState] = useState<ModelsState>({ status: 'loading' });
  useEffect(() => {
    let alive = true;
    callApi(ENDPOINTS.health).then(
      (reply) =>
        alive &&
        setState({
          status: 'ok',
          models: (reply.models ?? []).filter((m) => m.status !== 'refused'),
        }),
      () => alive && setState({ status: 'error' }),
    );
    return () => {
      alive = false;
    };
  }, []);
  return state;
}

interface ModelDetails {
  /**
   * Each loaded model's figures on the real field photos of its card (`reliability`; the set
   * contracts fieldRowOf picks, as the configuration page's summary), by model id.
   */
  field: Map<string, ReliabilityRow>;
  /** The ensemble's members (model ids), as the server built it from its card. */
  members: readonly string[];
}

/**
 * What GET /diagrodl/models/ adds to the accuracy list; empty while unknown or when the call fails
 * (the list shows the test accuracy alone then, and the ensemble without its members).
 */
function useModelDetails(): ModelDetails {
  const [details, setDetails] = useState<ModelDetails>({ field: new Map(), members: [] });
  useEffect(() => {
    let alive = true;
    callApi(ENDPOINTS.models).then(
      (models) => {
        const field = models.flatMap((m) => {
          const r = fieldRowOf(m.reliability);
          return r?.acceptedShare && r.accuracyAccepted !== undefined ? [[m.id, r] as const] : [];
        });
        const members = models.find((m) => m.id === 'ensemble')?.members ?? [];
        if (alive) setDetails({ field: new Map(field), members });
      },
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, []);
  return details;
}

function ModelAccuracy() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'es';
  const state = useLoadedModels();
  const { field, members } = useModelDetails();
  const name = (id: string) =>
    id === 'ensemble' && members.length
      ? t('diseases.about.modelNames.ensembleOf', {
          // in the configuration page's order, as the server's label names them
          members: inSelectorOrder(members)
            .map((v) => t(`diseases.about.modelNames.${v.modelId}`))
            .join(' + '),
        })
      : t(`diseases.about.modelNames.${id}`, { defaultValue: id });
  const pct = (x: number) => formatPercent(x, lang);
  if (state.status === 'loading') {
    return <p role="status">{t('diseases.about.accuracyLoading')}</p>;
  }
  if (state.status === 'error') {
    return <p className="text-danger">{t('diseases.about.accuracyError')}</p>;
  }
  if (state.models.length === 0) {
    return (
      <p className="fw-semibold" data-testid="no-models">
        {t('diseases.about.noModels')}
      </p>
    );
  }
  return (
    <>
      <p>{t('diseases.about.accuracyIntro')}</p>
      <ul data-testid="model-accuracy">
        {state.models.map((m) => (
          <li key={m.id}>
            <strong>{name(m.id)}</strong>:{' '}
            {m.accuracy === null ? t('diseases.about.notMeasured') : pct(m.accuracy)}
            {field.has(m.id) && (
              <span data-testid="model-field">
                {'; '}
                {t('diseases.about.onField', {
                  given: pct(field.get(m.id)!.acceptedShare!),
                  right: pct(field.get(m.id)!.accuracyAccepted!),
                })}
              </span>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * About DiAgroDL: what the tool does, the classes it knows, the three CNN architectures for
 * growers and for researchers, each loaded model's measured accuracy, and the tool icon.
 */
export default function AboutToolPage() {
  const { t } = useTranslation();
  const { data, error } = useContent<AboutContent>('about_tool');
  useDocumentTitle(data ? plain(data.title) : '');

  return (
    <PageLayout contentKey={data} ready={data !== null} error={error} testId="about-tool-page">
      {data && (
        <>
          <PageHeader title={data.title} summary={data.summary} />
          <ContentSections sections={data.sections} />
          <PageSection id="architectures" heading={t('diseases.about.architecturesHeading')}>
            {data.architectures.map((a) => (
              <div key={a.id} className="architecture card mb-3" data-testid={`arch-${a.id}`}>
                <div className="card-body">
                  <h3 className="h4 card-title">{a.name}</h3>
                  <div className="row g-4">
                    <div className="col-xl-5">
                      <h4 className="h6 text-uppercase arch-audience">
                        {t('diseases.about.forGrowers')}
                      </h4>
                      <Blocks blocks={a.forGrowers} />
                    </div>
                    <div className="col-xl-7">
                      <h4 className="h6 text-uppercase arch-audience">
                        {t('diseases.about.forResearchers')}
                      </h4>
                      <Blocks blocks={a.forResearchers} />
                    </div>
                  </div>
                </div>
              </div>
            ))}
          </PageSection>
          <PageSection id="accuracy" heading={t('diseases.about.accuracyHeading')}>
            <ModelAccuracy />
          </PageSection>
          <PageSection id="ai-tool" heading={t('diseases.sections.ai_tool')}>
            <ToolIconLink />
          </PageSection>
          <ReferencesSection references={data.references} />
        </>
      )}
    </PageLayout>
  );
}
