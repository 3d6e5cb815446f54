import Table from 'react-bootstrap/Table';
import { useNumberFormat } from './useNumberFormat.ts';

/** A figure of a screen and its report: [key, value, unit, decimals]. */
export type FigureRow = [string, number, string, number];

/** A table of figures: label, value with its decimals, unit; each row marked with its key. */
export function FiguresTable({
  rows,
  label,
  testId,
  caption,
}: {
  rows: FigureRow[];
  label: (key: string) => string;
  testId: string;
  caption: string;
}) {
  const { fmt } = useNumberFormat();
  return (
    <div className="table-responsive">
      <Table size="sm" className="tool-table w-auto" data-testid={testId}>
        <caption className="visually-hidden">{caption}</caption>
        <tbody>
          {rows.map(([key, value, unit, digits]) => (
            <tr key={key} data-figure={key}>
              <th scope="row" className="fw-normal">
                {label(key)}
              </th>
              <td className="num fw-semibold">{fmt(value, digits)}</td>
              <td>{unit}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
