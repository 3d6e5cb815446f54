import type { Block } from '../content.ts';

/** Text with `*italic*` marks (scientific names) rendered as <em>. */
export function Inline({ text }: { text: string }) {
  const parts = text.split(/\*([^*]+)\*/g);
  return <>{parts.map((part, i) => (i % 2 === 1 ? <em key={i}>{part}</em> : part))}</>;
}

/** The text without its italic marks (document titles, attributes). */
export function plain(text: string): string {
  return text.replace(/\*([^*]+)\*/g, '$1');
}

export function Blocks({ blocks }: { blocks: readonly Block[] }) {
  return (
    <>
      {blocks.map((block, i) =>
        'p' in block ? (
          <p key={i}>
            <Inline text={block.p} />
          </p>
        ) : (
          <ul key={i}>
            {block.ul.map((item, j) => (
              <li key={j}>
                <Inline text={item} />
              </li>
            ))}
          </ul>
        ),
      )}
    </>
  );
}
