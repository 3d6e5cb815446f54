import { type ReactNode, useId } from 'react';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';

/** A tool's page: its document title, heading and introduction, then the tool itself. */
export function ToolPage({
  documentTitle,
  title,
  intro,
  children,
}: {
  documentTitle: string;
  title: string;
  intro: string;
  children: ReactNode;
}) {
  useDocumentTitle(documentTitle);
  const id = useId();
  return (
    <section className="tool-page" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`} className="h2">
        {title}
      </h1>
      <p className="text-body-secondary">{intro}</p>
      {children}
    </section>
  );
}
