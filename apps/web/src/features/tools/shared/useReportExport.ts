import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { svgToPng } from './chart-image.ts';
import { downloadFile, fileStem, toCsvFile } from './export.ts';
import { reportCsvRows, reportPdfBlocks, type Report } from './report.ts';
import { useNumberFormat } from './useNumberFormat.ts';

/**
 * The CSV and PDF downloads of a tool's report (see report.ts). `charts` are the SVG charts the
 * report's 'charts' blocks refer to by index; `rowsLeftOut` and `blocksLeftOut` are the PDF's
 * notes of what does not fit on its page (the irrigation tools' by default).
 */
export function useReportExport(
  kind: string,
  charts: readonly RefObject<SVGSVGElement | null>[] = [],
  options: {
    rowsLeftOut?: string;
    blocksLeftOut?: string;
    scientific?: (value: number) => string;
  } = {},
) {
  const { t } = useTranslation();
  const { lang, fmt } = useNumberFormat();
  const csv = (report: Report) =>
    downloadFile(
      `${fileStem(kind)}.csv`,
      'text/csv;charset=utf-8',
      toCsvFile(reportCsvRows(report)),
    );
  const pdf = async (report: Report) => {
    const images = await Promise.all(
      charts.map((ref) => (ref.current ? svgToPng(ref.current) : Promise.resolve(null))),
    );
    // pdf-lib is large: it loads only when a PDF is asked for.
    const { buildPdfReport } = await import('./pdf.ts');
    const bytes = await buildPdfReport({
      title: report.title,
      subtitle: new Date().toLocaleString(lang === 'en' ? 'en-US' : 'es-MX'),
      rowsLeftOut: options.rowsLeftOut ?? t('irrigation.pdf.rowsLeftOut'),
      blocksLeftOut: options.blocksLeftOut ?? t('irrigation.pdf.blocksLeftOut'),
      blocks: reportPdfBlocks(report, fmt, images, options.scientific),
    });
    downloadFile(`${fileStem(kind)}.pdf`, 'application/pdf', bytes);
  };
  /** The export bar's CSV and PDF handlers for a report (null: nothing to export yet). */
  const actions = (report: () => Report | null) => ({
    onCsv: () => {
      const r = report();
      if (r) csv(r);
    },
    onPdf: async () => {
      const r = report();
      if (r) await pdf(r);
    },
  });
  return { csv, pdf, actions };
}
