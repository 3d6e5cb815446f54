import { useTranslation } from 'react-i18next';
import { Carousel, type CarouselLabels } from './components/Carousel.tsx';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import {
  type DiseaseSlug,
  diseaseBySlug,
  FULL_SECTIONS,
  IMAGE_SIZE,
  REDUCED_SECTIONS,
  type SectionKey,
  sectionId,
} from './catalog.ts';
import { type DiseaseContent, useContent } from './content.ts';
import { Gallery, ImageCredit, imageSrc } from './components/Gallery.tsx';
import { PageLayout } from './components/PageLayout.tsx';
import { References } from './components/References.tsx';
import { PageHeader, PageSection } from './components/ContentSections.tsx';
import { Blocks, plain } from './components/RichText.tsx';
import { ToolIconLink } from './components/ToolIconLink.tsx';

/** The carousel's texts in the active language. */
export function useCarouselLabels(): CarouselLabels {
  const { t } = useTranslation();
  return {
    carousel: t('diseases.carousel.roledescription'),
    slide: t('diseases.carousel.slide'),
    previous: t('diseases.carousel.previous'),
    next: t('diseases.carousel.next'),
    dots: t('diseases.carousel.dots'),
    goTo: (n, total) => t('diseases.carousel.goTo', { n, total }),
    position: (n, total) => t('diseases.carousel.position', { n, total }),
    pause: t('diseases.carousel.pause'),
    play: t('diseases.carousel.play'),
  };
}

/**
 * One disease or pest page: the sections of the specification in its order (the reduced set
 * with a carousel for the spider mite), from the content file of the active language.
 */
export default function DiseasePage({ slug }: { slug: DiseaseSlug }) {
  const { t } = useTranslation();
  const entry = diseaseBySlug(slug);
  const { data, error } = useContent<DiseaseContent>(slug);
  const content = data && data.slug === slug ? data : null;
  const carouselLabels = useCarouselLabels();
  useDocumentTitle(content ? plain(content.name) : '');
  const keys: readonly SectionKey[] = slug === 'spider_mites' ? REDUCED_SECTIONS : FULL_SECTIONS;

  const body = (c: DiseaseContent, key: SectionKey) => {
    switch (key) {
      case 'images':
        return (
          <>
            {slug === 'spider_mites' ? (
              <Carousel
                label={t('diseases.gallery.label', { name: plain(c.name) })}
                labels={carouselLabels}
                autoplay
                slides={c.images.map((img) => ({
                  src: imageSrc(entry.folder, img.file),
                  alt: img.alt,
                  width: IMAGE_SIZE,
                  height: IMAGE_SIZE,
                }))}
              />
            ) : (
              <Gallery folder={entry.folder} images={c.images} />
            )}
            <ImageCredit />
          </>
        );
      case 'ai_tool':
        return (
          <>
            <Blocks blocks={c.sections.ai_tool ?? []} />
            <ToolIconLink />
          </>
        );
      case 'references':
        return <References references={c.references} />;
      default:
        return <Blocks blocks={c.sections[key] ?? []} />;
    }
  };

  return (
    <PageLayout
      contentKey={content}
      ready={content !== null}
      error={error}
      testId={`disease-page-${slug}`}
    >
      {content && (
        <>
          <PageHeader title={content.name} summary={content.summary} />
          {keys.map((key) => (
            <PageSection
              key={key}
              id={sectionId(key)}
              heading={t(`diseases.sections.${key}`)}
              className={`section-${sectionId(key)}`}
            >
              {body(content, key)}
            </PageSection>
          ))}
        </>
      )}
    </PageLayout>
  );
}
