import Alert from 'react-bootstrap/Alert';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CLASSES } from '@diagrodl/contracts';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { type TomatoContent, useContent } from './content.ts';
import { Gallery, ImageCredit } from './components/Gallery.tsx';
import { ContentSections } from './components/ContentSections.tsx';
import { PageLayout } from './components/PageLayout.tsx';
import { References } from './components/References.tsx';
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
          <header className="disease-header">
            <h1>
              <Inline text={data.title} />
            </h1>
            <p className="lead">
              <Inline text={data.summary} />
            </p>
          </header>
          <section className="disease-section" aria-labelledby="trained-classes">
            <h2 id="trained-classes" tabIndex={-1}>
              {t('diseases.tomato.classesHeading')}
            </h2>
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
          </section>
          <ContentSections sections={data.sections} />
          <section className="disease-section" aria-labelledby="images">
            <h2 id="images" tabIndex={-1}>
              {t('diseases.sections.images')}
            </h2>
            <Gallery folder="Tomato" images={data.images} />
            <ImageCredit />
          </section>
          <section className="disease-section" aria-labelledby="references">
            <h2 id="references" tabIndex={-1}>
              {t('diseases.sections.references')}
            </h2>
            <References references={data.references} />
          </section>
        </>
      )}
    </PageLayout>
  );
}
