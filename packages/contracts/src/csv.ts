/** A cell of a CSV file: empty when null or undefined; a number that is not finite is empty too. */
export type CsvCell = string | number | null | undefined;

function csvCell(cell: CsvCell | boolean): string {
  if (cell === null || cell === undefined) return '';
  const text =
    typeof cell === 'number' ? (Number.isFinite(cell) ? String(cell) : '') : String(cell);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * RFC 4180 CSV (comma separated, CRLF rows, quotes doubled); numbers keep full precision. The
 * engineering tools' exports (browser) and the "Mis datos" archive (server) write it.
 */
export function toCsv(rows: readonly (readonly (CsvCell | boolean)[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/**
 * A CSV file's text: toCsv's after a UTF-8 byte-order mark, without which spreadsheets (Excel)
 * read the file as ANSI and show "LÃ¡mina" for "Lámina". For files offered for download.
 */
export function toCsvFile(rows: readonly (readonly (CsvCell | boolean)[])[]): string {
  return `\uFEFF${toCsv(rows)}`;
}
