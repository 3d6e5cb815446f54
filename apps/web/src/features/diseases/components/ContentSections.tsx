import type { Block } from '../content.ts';
import { Blocks, Inline } from './RichText.tsx';

export interface ContentSection {
  id: string;
  heading: string;
  blocks: Block[];
}

/** The free sections of the crop and tool pages: an h2 (for the table of contents) and its blocks. */
export function ContentSections({ sections }: { sections: readonly ContentSection[] }) {
  return (
    <>
      {sections.map((s) => (
        <section key={s.id} className="disease-section" aria-labelledby={s.id}>
          <h2 id={s.id} tabIndex={-1}>
            <Inline text={s.heading} />
          </h2>
          <Blocks blocks={s.blocks} />
        </section>
      ))}
    </>
  );
}
