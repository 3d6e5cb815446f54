import type { Block } from '../content.ts';

// `[[es|mildiu]]`: words of another language, marked with it (a screen reader reads them in it).
const OTHER_LANGUAGE = /\[\[(es|en)\|([^\]]+)\]\]/g;

/** Text with `*italic*` marks (scientific names) rendered as <em>. */
function Italics({ text }: { text: string }) {
  const parts = text.split(/\*([^*]+)\*/g);
  return <>{parts.map((part, i) => (i % 2 === 1 ? <em key={i}>{part}</em> : part))}</>;
}

/** Text with `*italic*` marks and `[[lang|words]]` marks of another language. */
export function Inline({ text }: { text: string }) {
  const parts = text.split(OTHER_LANGUAGE);
  // split with two groups: text, lang, words, text, lang, words, …
  const out = [];
  for (let i = 0; i < parts.length; i += 3) {
    out.push(<Italics key={i} text={parts[i]!} />);
    if (i + 2 < parts.length) {
      out.push(
        <span key={i + 1} lang={parts[i + 1]}>
          <Italics text={parts[i + 2]!} />
        </span>,
      );
    }
  }
  return <>{out}</>;
}

/** The text without its marks (document titles, attributes). */
export function plain(text: string): string {
  return text.replace(/\*([^*]+)\*/g, '$1').replace(OTHER_LANGUAGE, '$2');
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
