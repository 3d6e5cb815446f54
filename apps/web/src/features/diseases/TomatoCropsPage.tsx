import Alert from 'react-bootstrap/Alert';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CLASSES } from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { type TomatoContent, useContent } from './content.ts';
import { Gallery, ImageCredit } from './components/Gallery.tsx';
import { ContentSections, PageHeader, PageSection } from './components/ContentSections.tsx';
import { PageLayout } from './components/PageLayout.tsx';
import { ReferencesSection } from './components/References.tsx';
import { Inline, plain } from './components/RichText.tsx';

/** Where the healthy class points on this page: the section on the healthy leaf. */
const HEALTHY_ANCHOR = 'anatomia-de-la-hoja';

/**
 * The tomato crop page: the crop, the leaf, how to photograph it, and the 10 classes the
 * models were trained on (nine diseases or pests and healthy), each linking to its page.
 */
export default function TomatoCropsPage() {
  const { t, i18n } = useTranslation();
  const { data, error } = useContent<TomatoContent>('tomato_crops');
  useDocumentTitle(data ? plain(data.title) : '');
  const lang = i18n.language;

  return (
    <PageLayout
      picker={false}
      contentKey={data}
      ready={data !== null}
      error={error}
      testId="tomato-crops-page"
    >
      {data && (
        <>
          <PageHeader title={data.title} summary={data.summary} />
          <PageSection id="trained-classes" heading={t('diseases.tomato.classesHeading')}>
            <p>
              <Inline text={data.trainedIntro} />
            </p>
            <ol className="class-list" data-testid="class-list">
              {CLASSES.map((c) => (
                <li key={c.id} data-class={c.id}>
                  {c.isDisease ? (
                    <Link to={c.route}>{lang.startsWith('en') ? c.en : c.es}</Link>
                  ) : (
                    <a href={`#${HEALTHY_ANCHOR}`}>
                      {t('diseases.tomato.healthy', { name: lang.startsWith('en') ? c.en : c.es })}
                    </a>
                  )}
                </li>
              ))}
            </ol>
            <Alert variant="warning" className="coverage-note" data-testid="coverage-note">
              <Inline text={data.coverageNote} />
            </Alert>
          </PageSection>
          <ContentSections sections={data.sections} />
          <PageSection id="images" heading={t('diseases.sections.images')}>
            <Gallery folder="Tomato" images={data.images} />
            <ImageCredit />
          </PageSection>
          <ReferencesSection references={data.references} />
        </>
      )}
    </PageLayout>
  );
}
