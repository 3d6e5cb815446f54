import { useTranslation } from 'react-i18next';
import type { Reference } from '../content.ts';
import { PageSection } from './ContentSections.tsx';
import { Inline } from './RichText.tsx';

/** Ends a bibliographic element with a period unless it already ends with punctuation. */
function stop(text: string): string {
  return /[.?!]$/.test(text.trim()) ? '' : '.';
}

function doiUrl(doi: string): string {
  return `https://doi.org/${doi}`;
}

/**
 * A numbered reference list: authors (year). Title. Source. DOI or stable link when known. The
 * title and source are marked with their language (English unless the reference says otherwise),
 * so a screen reader reads an English title in English on the Spanish page.
 */
export function References({ references }: { references: readonly Reference[] }) {
  const { t } = useTranslation();
  return (
    <ol className="references">
      {references.map((ref, i) => {
        const link = ref.doi ? doiUrl(ref.doi) : ref.url;
        const extra = ref.doi && ref.url && ref.url !== doiUrl(ref.doi) ? ref.url : undefined;
        return (
          <li key={i}>
            {ref.authors} ({ref.year}).{' '}
            <span lang={ref.lang ?? 'en'}>
              <Inline text={ref.title} />
              {stop(ref.title)} <span className="fst-italic">{ref.source}</span>
              {stop(ref.source)}
            </span>
            {link && (
              <>
                {' '}
                <a href={link} className="reference-link" rel="noopener">
                  {ref.doi ? t('diseases.references.doi', { doi: ref.doi }) : link}
                </a>
              </>
            )}
            {extra && (
              <>
                {' '}
                <a href={extra} className="reference-link" rel="noopener">
                  {extra}
                </a>
              </>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** The last section of the crop and tool pages: their references. */
export function ReferencesSection({ references }: { references: readonly Reference[] }) {
  const { t } = useTranslation();
  return (
    <PageSection id="references" heading={t('diseases.sections.references')}>
      <References references={references} />
    </PageSection>
  );
}
