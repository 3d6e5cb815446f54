import { type ReactNode, useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import Spinner from 'react-bootstrap/Spinner';
import { TableOfContents } from './TableOfContents.tsx';
import { useMediaQuery } from './useMediaQuery.ts';
import { DiseasePicker, DiseaseSideNav } from './DiseaseNav.tsx';
import '@/styles/diseases.css';

interface PageLayoutProps {
  /** Shows the 'DiAgroDL actualmente ha sido entrenado…' heading and the disease selector. */
  picker?: boolean;
  /** Something that changes when the article's content changes (re-reads the headings). */
  contentKey: unknown;
  ready: boolean;
  error: boolean;
  testId: string;
  children: ReactNode;
}

/**
 * The frame of every page of this feature: selector on top, side disease navigation,
 * the article, and a table of contents from its level-2 headings (a sticky column on wide
 * screens, a collapsible list above the article on phones).
 */
export function PageLayout({
  picker = true,
  contentKey,
  ready,
  error,
  testId,
  children,
}: PageLayoutProps) {
  const { t } = useTranslation();
  const articleRef = useRef<HTMLElement>(null);
  const wide = useMediaQuery('(min-width: 992px)');
  const [tocOpen, setTocOpen] = useState(false);
  const { pathname, hash } = useLocation();

  // A new page starts at the top, or at the section named in the address (#id).
  useEffect(() => {
    if (!ready) return;
    const id = decodeURIComponent(hash.replace(/^#/, ''));
    const target = id ? document.getElementById(id) : null;
    if (target) target.scrollIntoView({ block: 'start' });
    else window.scrollTo(0, 0);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname, ready]);

  const toc = (
    <TableOfContents
      container={articleRef}
      label={t('diseases.toc.label')}
      title={wide ? t('diseases.toc.title') : undefined}
      refreshKey={contentKey}
      onNavigate={() => setTocOpen(false)}
    />
  );

  return (
    <div className="disease-page" data-testid={testId}>
      {picker && <DiseasePicker />}
      <div className="row g-4">
        <div className="col-lg-2 order-3 order-lg-1 disease-sidenav-column">
          <DiseaseSideNav />
        </div>
        <div className="col-lg-7 col-xl-8 order-2 disease-main">
          {!wide && ready && (
            <details
              className="toc-mobile"
              open={tocOpen}
              onToggle={(e) => setTocOpen(e.currentTarget.open)}
            >
              <summary>{t('diseases.toc.title')}</summary>
              {toc}
            </details>
          )}
          {error ? (
            <Alert variant="danger">{t('diseases.loadError')}</Alert>
          ) : !ready ? (
            <div className="d-flex align-items-center gap-2 p-5" role="status">
              <Spinner animation="border" variant="success" aria-hidden="true" />
              <span>{t('diseases.loading')}</span>
            </div>
          ) : (
            <article ref={articleRef} className="disease-article">
              {children}
            </article>
          )}
        </div>
        {wide && (
          <div className="col-lg-3 col-xl-2 order-lg-3 toc-column">
            <div className="toc-sticky">{ready && toc}</div>
          </div>
        )}
      </div>
    </div>
  );
}
