import type { ReactNode } from 'react';
import Table from 'react-bootstrap/Table';

/** A column of a tool's table: its header and whether it holds numbers (right-aligned). */
export interface ToolColumn {
  label: ReactNode;
  num?: boolean;
}

/**
 * A tool's result table in a focusable, labelled region that scrolls: sideways only
 * (`table-responsive`), or also downwards under a sticky header (`scroll`, for long lists).
 * `children` are the body's rows.
 */
export function ToolTable({
  columns,
  children,
  foot,
  caption,
  testId,
  scroll = false,
  id,
  className,
  label,
  labelledBy,
}: {
  columns: readonly ToolColumn[];
  children: ReactNode;
  /** The rows of a footer (totals). */
  foot?: ReactNode;
  /** A caption for screen readers. */
  caption?: string;
  testId?: string;
  scroll?: boolean;
  /** The id and extra classes of the region. */
  id?: string;
  className?: string;
  label?: string;
  labelledBy?: string;
}) {
  return (
    <div
      id={id}
      className={[scroll ? 'tool-table-scroll' : 'table-responsive', className]
        .filter(Boolean)
        .join(' ')}
      tabIndex={0}
      role="region"
      aria-label={label}
      aria-labelledby={labelledBy}
    >
      <Table size="sm" striped className="tool-table" data-testid={testId}>
        {caption && <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c, i) => (
              <th key={i} scope="col" className={c.num ? 'num' : undefined}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
        {foot && <tfoot>{foot}</tfoot>}
      </Table>
    </div>
  );
}

/** A row's number cells (right-aligned), already formatted. */
export function NumCells({ values }: { values: readonly ReactNode[] }) {
  return values.map((v, i) => (
    <td key={i} className="num">
      {v}
    </td>
  ));
}
