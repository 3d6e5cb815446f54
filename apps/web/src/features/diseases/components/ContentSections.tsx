import type { ReactNode } from 'react';
import type { Block } from '../content.ts';
import { Blocks, Inline } from './RichText.tsx';

export interface ContentSection {
  id: string;
  heading: string;
  blocks: Block[];
}

/** A content page's title and summary. */
export function PageHeader({ title, summary }: { title: string; summary: string }) {
  return (
    <header className="disease-header">
      <h1>
        <Inline text={title} />
      </h1>
      <p className="lead">
        <Inline text={summary} />
      </p>
    </header>
  );
}

/** One section of a content page: an h2 the table of contents lists (by `id`), then its body. */
export function PageSection({
  id,
  heading,
  className,
  children,
}: {
  id: string;
  heading: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      className={className ? `disease-section ${className}` : 'disease-section'}
      aria-labelledby={id}
    >
      <h2 id={id} tabIndex={-1}>
        {heading}
      </h2>
      {children}
    </section>
  );
}

/** The free sections of the crop and tool pages: an h2 (for the table of contents) and its blocks. */
export function ContentSections({ sections }: { sections: readonly ContentSection[] }) {
  return (
    <>
      {sections.map((s) => (
        <PageSection key={s.id} id={s.id} heading={<Inline text={s.heading} />}>
          <Blocks blocks={s.blocks} />
        </PageSection>
      ))}
    </>
  );
}
