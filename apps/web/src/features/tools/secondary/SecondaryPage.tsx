import { useEffect, useId, useMemo, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Table from 'react-bootstrap/Table';
import { useTranslation } from 'react-i18next';
import {
  HydraulicsInputError,
  DEFAULT_FRICTION_FORMULA,
  DESIGN_MESSAGES,
  FRICTION_FORMULAS,
  FRICTION_FORMULA_LABELS,
  SECONDARY_FIELD_LABELS,
  SECONDARY_PIPE_TYPES,
  STATUS_HERE,
  addSectionAlert,
  designSecondarySection,
  isFrictionFormula,
  parseDecimal,
  sectionCountAlert,
  summarizePipes,
  summarizePressures,
  validateSecondarySection,
  type SecondarySectionRaw,
  type SecondarySectionResult,
  type SecondarySummaryRow,
} from '@diagrodl/hydraulics';
import { ExportBar } from '../shared/ExportBar.tsx';
import { InlineAlert } from '@/components/InlineAlert.tsx';
import { CHART_COLORS, LineChart } from '../shared/LineChart.tsx';
import { useDocumentTitle } from '@/components/useDocumentTitle.ts';
import { svgToPng } from '../shared/chart-image.ts';
import {
  autosave,
  designFile,
  downloadFile,
  fileStem,
  is,
  loadAutosave,
  readDesignFile,
  toCsv,
  type CsvCell,
} from '../shared/export.ts';
import { formatNumber } from '@/lib/format.ts';
import type { Language } from '@/lib/i18n.ts';
import { messageNumber, useNumberFormat } from '../shared/useNumberFormat.ts';
import { NumberField, SectionActions, StatusLine, useExportLabels } from '../shared/fields.tsx';
import '../shared/tools.css';

const KIND = 'secondary';
type Field = keyof SecondarySectionRaw;
const NUMBER_FIELDS = [
  { key: 'nd', unit: '' },
  { key: 'length', unit: 'm' },
  { key: 'qs', unit: 'LPH' },
  { key: 's0', unit: 'm' },
  { key: 'se', unit: 'm' },
  { key: 'hfp', unit: 'm' },
] as const satisfies readonly { key: Field; unit: string }[];
/** Issue 20's fields, beyond the specification: friction formula, pressure the laterals need. */
const EXTRA_FIELDS = ['formula', 'pressure'] as const;
/** The specification's seven fields. */
const FIELDS: readonly Exclude<Field, (typeof EXTRA_FIELDS)[number]>[] = [
  'pipeType',
  'nd',
  'length',
  'qs',
  's0',
  'se',
  'hfp',
];
/** Pressure proposed for the laterals on a new section, m (the lateral calculator's Po). */
const DEFAULT_PRESSURE = '10';

interface Unit {
  key: number;
  raw: SecondarySectionRaw;
  result: SecondarySectionResult | null;
  alert: { field: string; message: string } | null;
}

const emptyRaw = (): SecondarySectionRaw => ({
  pipeType: '',
  nd: '',
  length: '',
  qs: '',
  s0: '',
  se: '',
  hfp: '',
  formula: DEFAULT_FRICTION_FORMULA,
  pressure: DEFAULT_PRESSURE,
});

/** Validates and designs one section; the result or the alert of the first failing field. */
function calculateUnit(unit: Unit, section: number, lang: Language): Unit {
  const check = validateSecondarySection(unit.raw, section);
  if (!check.ok) {
    return { ...unit, result: null, alert: { field: check.field, message: check.message } };
  }
  try {
    const result = designSecondarySection(check.value, section, {
      formatNumber: messageNumber(lang),
    });
    return { ...unit, result, alert: null };
  } catch (err) {
    if (err instanceof HydraulicsInputError) {
      return { ...unit, result: null, alert: { field: err.field, message: err.message } };
    }
    throw err;
  }
}

interface Saved {
  units: { raw: SecondarySectionRaw; calculated: boolean }[];
  summary: boolean;
}

function parseSaved(data: unknown): Saved | null {
  if (!is.record(data) || !Array.isArray(data.units) || data.units.length > 20) return null;
  const units: Saved['units'] = [];
  for (const u of data.units) {
    if (!is.record(u) || !is.stringRecord(u.raw, FIELDS)) return null;
    const saved = u.raw as Record<string, unknown>;
    // Files saved before issue 20 have no formula or pressure: the defaults of a new section.
    const raw = { ...emptyRaw(), ...Object.fromEntries(FIELDS.map((f) => [f, saved[f]])) };
    for (const f of EXTRA_FIELDS) if (typeof saved[f] === 'string') raw[f] = saved[f];
    units.push({ raw: raw as SecondarySectionRaw, calculated: u.calculated === true });
  }
  return { units, summary: data.summary === true };
}

interface State {
  units: Unit[];
  summary: SecondarySummaryRow[] | null;
  nextKey: number;
}

function restore(saved: Saved | null, lang: Language): State {
  if (!saved) {
    return {
      units: [{ key: 1, raw: emptyRaw(), result: null, alert: null }],
      summary: null,
      nextKey: 2,
    };
  }
  const units = saved.units.map((u, i) => {
    const unit: Unit = { key: i + 1, raw: u.raw, result: null, alert: null };
    return u.calculated ? calculateUnit(unit, i + 1, lang) : unit;
  });
  const summary =
    saved.summary && !sectionCountAlert(units.length)
      ? summarizePipes(units.flatMap((u) => (u.result ? [u.result] : [])))
      : null;
  return { units, summary, nextKey: units.length + 1 };
}

export default function SecondaryPage() {
  const { t } = useTranslation();
  const { lang, fmt } = useNumberFormat();
  useDocumentTitle(t('routes./Secondary_designer'));
  const id = useId();
  const [state, setState] = useState<State>(() => restore(parseSaved(loadAutosave(KIND)), lang));
  const [pageAlert, setPageAlert] = useState<{ place: 'add' | 'summary'; text: string } | null>(
    null,
  );
  const svgRef = useRef<SVGSVGElement>(null);
  const profileRef = useRef<SVGSVGElement>(null);
  const labels = useExportLabels();
  const first = useRef(true);
  const { units, summary } = state;

  const saved: Saved = useMemo(
    () => ({
      units: units.map((u) => ({ raw: u.raw, calculated: u.result !== null })),
      summary: summary !== null,
    }),
    [units, summary],
  );
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    autosave(KIND, saved);
  }, [saved]);

  const setUnit = (key: number, update: (u: Unit, index: number) => Unit, clearSummary = false) =>
    setState((s) => ({
      ...s,
      units: s.units.map((u, i) => (u.key === key ? update(u, i) : u)),
      summary: clearSummary ? null : s.summary,
    }));

  const addUnit = () => {
    const alert = addSectionAlert(units.length);
    if (alert) {
      setPageAlert({ place: 'add', text: alert });
      return;
    }
    setPageAlert(null);
    setState((s) => ({
      ...s,
      units: [...s.units, { key: s.nextKey, raw: emptyRaw(), result: null, alert: null }],
      nextKey: s.nextKey + 1,
    }));
  };

  const reset = () => {
    setPageAlert(null);
    setState((s) => ({ units: [], summary: null, nextKey: s.nextKey }));
  };

  const accounting = () => {
    const alert = sectionCountAlert(units.length);
    if (alert) {
      setPageAlert({ place: 'summary', text: alert });
      setState((s) => ({ ...s, summary: null }));
      return;
    }
    setPageAlert(null);
    setState((s) => ({
      ...s,
      summary: summarizePipes(s.units.flatMap((u) => (u.result ? [u.result] : []))),
    }));
  };

  const deleteUnit = (key: number) => {
    setPageAlert(null);
    setState((s) => ({
      ...s,
      summary: null,
      // Sections are numbered by position: the ones after the deleted section are renumbered.
      units: s.units
        .filter((u) => u.key !== key)
        .map((u, i) => (u.result ? calculateUnit(u, i + 1, lang) : u)),
    }));
  };

  const designed = units.flatMap((u, i) =>
    u.result ? [{ section: i + 1, result: u.result }] : [],
  );
  const withStretches = designed.filter((d) => d.result.stretches.length > 0);
  const formulaName = (f: string | undefined) =>
    FRICTION_FORMULA_LABELS[isFrictionFormula(f) ? f : DEFAULT_FRICTION_FORMULA][lang];
  // Issue 20: pressures along each designed section (the inlet, then every outlet).
  const profiles = designed.flatMap(({ section, result }) => {
    if (!result.outletPressures || result.inletPressure === null) return [];
    const input = units[section - 1]!.raw;
    const s0 = parseDecimal(input.s0) ?? 0;
    const se = parseDecimal(input.se) ?? 0;
    const outlets = result.outletPressures.map((pressure, i) => ({
      outlet: i + 1,
      distance: s0 + i * se,
      pressure,
    }));
    return [{ section, inlet: result.inletPressure, outlets }];
  });
  const pressures = summary ? summarizePressures(designed.map((d) => d.result)) : null;
  const mainlinePressureText = (required: { section: number }) =>
    t('irrigation.secondary.mainlinePressure', { n: required.section });
  const sectionDetail = (result: SecondarySectionResult) =>
    [
      `${t('irrigation.formulaUsed', { formula: formulaName(result.formula) })}.`,
      result.inletPressure === null
        ? ''
        : t('irrigation.secondary.inletPressure', {
            pressure: fmt(result.inletPressure, 2),
            last: fmt(result.outletPressures!.at(-1)!, 2),
          }),
      result.blasiusOutOfRange ? DESIGN_MESSAGES[lang].blasiusRange : '',
    ]
      .filter(Boolean)
      .join(' ');

  const series = withStretches.map(({ section, result }, i) => {
    const points: { x: number; y: number }[] = [];
    let x = 0;
    for (const s of result.stretches) {
      points.push({ x, y: s.nominalDiameter }, { x: x + s.length, y: s.nominalDiameter });
      x += s.length;
    }
    return {
      id: `s${section}`,
      label: t('irrigation.secondary.sectionN', { n: section }),
      color: CHART_COLORS[i % CHART_COLORS.length]!,
      points,
      markers: false,
    };
  });

  const stretchRows = withStretches.flatMap(({ section, result }) => {
    let from = 0;
    return result.stretches.map((s) => {
      const row = { section, from, to: from + s.length, stretch: s };
      from += s.length;
      return row;
    });
  });

  const csv = () => {
    const rows: CsvCell[][] = [
      [
        t('irrigation.secondary.section'),
        ...FIELDS.map((f) => SECONDARY_FIELD_LABELS[f]),
        t('irrigation.status'),
        t('irrigation.formula'),
        t('irrigation.secondary.fields.pressure'),
      ],
      ...units.map((u, i) => [
        i + 1,
        ...FIELDS.map((f) => u.raw[f]),
        u.result ? u.result.statusText : STATUS_HERE,
        formulaName(u.result?.formula ?? u.raw.formula),
        u.raw.pressure,
      ]),
      [],
      [
        t('irrigation.secondary.section'),
        t('irrigation.secondary.cols.pipeType'),
        t('irrigation.secondary.cols.nominal'),
        t('irrigation.secondary.cols.length'),
        t('irrigation.secondary.cols.outlets'),
        t('irrigation.secondary.cols.hf'),
      ],
      ...stretchRows.map((r) => [
        r.section,
        r.stretch.pipeType,
        r.stretch.nominalDiameter,
        r.stretch.length,
        r.stretch.outlets,
        r.stretch.hf,
      ]),
      // Issue 20: the formula and inlet pressure of each section, then every outlet's pressure.
      [],
      [
        t('irrigation.secondary.section'),
        t('irrigation.formula'),
        t('irrigation.secondary.cols.inletPressure'),
      ],
      ...designed.map(({ section, result }) => [
        section,
        formulaName(result.formula),
        result.inletPressure,
      ]),
      [],
      [
        t('irrigation.secondary.section'),
        t('irrigation.secondary.cols.outlet'),
        t('irrigation.secondary.cols.distance'),
        t('irrigation.secondary.cols.pressure'),
      ],
      ...profiles.flatMap(({ section, outlets }) =>
        outlets.map((o) => [section, o.outlet, o.distance, o.pressure]),
      ),
    ];
    if (summary) {
      rows.push(
        [],
        [
          t('irrigation.secondary.cols.pipeType'),
          t('irrigation.secondary.cols.nominal'),
          t('irrigation.secondary.cols.totalLength'),
          t('irrigation.secondary.cols.adjusted'),
        ],
        ...summary.map((r) => [r.pipeType, r.nominalDiameter, r.totalLength, r.adjustedLength]),
      );
      if (pressures?.required) {
        rows.push(
          [],
          [mainlinePressureText(pressures.required), pressures.required.inletPressure, 'm'],
        );
      }
    }
    downloadFile(`${fileStem(KIND)}.csv`, 'text/csv;charset=utf-8', toCsv(rows));
  };

  const pdf = async () => {
    const image = svgRef.current ? await svgToPng(svgRef.current) : null;
    const profile = profileRef.current ? await svgToPng(profileRef.current) : null;
    // pdf-lib is large: it loads only when a PDF is asked for.
    const { buildPdfReport } = await import('../shared/pdf.ts');
    const bytes = await buildPdfReport({
      title: t('irrigation.secondary.title'),
      subtitle: new Date().toLocaleString(lang === 'en' ? 'en-US' : 'es-MX'),
      rowsLeftOut: t('irrigation.pdf.rowsLeftOut'),
      blocks: [
        {
          kind: 'table',
          heading: t('irrigation.pdf.inputs'),
          columns: [
            '#',
            ...FIELDS.map((f) => SECONDARY_FIELD_LABELS[f]),
            t('irrigation.formula'),
            t('irrigation.secondary.fields.pressure'),
          ],
          rows: units.map((u, i) => [
            String(i + 1),
            ...FIELDS.map((f) => u.raw[f]),
            formulaName(u.raw.formula),
            u.raw.pressure ?? '',
          ]),
          maxRows: 12,
        },
        {
          kind: 'table',
          heading: t('irrigation.results'),
          columns: [
            t('irrigation.secondary.section'),
            t('irrigation.secondary.cols.pipeType'),
            t('irrigation.secondary.cols.nominal'),
            t('irrigation.secondary.cols.length'),
            t('irrigation.secondary.cols.outlets'),
            t('irrigation.secondary.cols.hf'),
          ],
          rows: stretchRows.map((r) => [
            String(r.section),
            r.stretch.pipeType,
            fmt(r.stretch.nominalDiameter, 0),
            fmt(r.stretch.length, 2),
            fmt(r.stretch.outlets, 0),
            fmt(r.stretch.hf, 4),
          ]),
          maxRows: 14,
        },
        ...designed.flatMap(({ result }) => [
          {
            kind: 'text' as const,
            text: `${t('irrigation.secondary.sectionN', { n: result.section })}: ${result.message}`,
            tone: result.status === 'ok' ? ('success' as const) : ('danger' as const),
          },
          { kind: 'text' as const, text: sectionDetail(result) },
        ]),
        ...(summary
          ? [
              {
                kind: 'table' as const,
                heading: t('irrigation.secondary.summaryTitle'),
                columns: [
                  t('irrigation.secondary.cols.pipeType'),
                  t('irrigation.secondary.cols.nominal'),
                  t('irrigation.secondary.cols.totalLength'),
                  t('irrigation.secondary.cols.adjusted'),
                ],
                rows: summary.map((r) => [
                  r.pipeType,
                  fmt(r.nominalDiameter, 0),
                  fmt(r.totalLength, 2),
                  fmt(r.adjustedLength, 0),
                ]),
                maxRows: 10,
              },
              ...(pressures?.required
                ? [
                    {
                      kind: 'text' as const,
                      text: `${mainlinePressureText(pressures.required)}: ${fmt(pressures.required.inletPressure, 2)} m`,
                      tone: 'success' as const,
                    },
                  ]
                : []),
            ]
          : []),
        {
          kind: 'charts',
          heading: `${t('irrigation.secondary.chartTitle')} · ${t('irrigation.secondary.profileTitle')}`,
          images: [image, profile],
        },
      ],
    });
    downloadFile(`${fileStem(KIND)}.pdf`, 'application/pdf', bytes);
  };

  return (
    <section className="tool-page" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`} className="h2">
        {t('irrigation.secondary.title')}
      </h1>
      <p className="text-body-secondary">{t('irrigation.secondary.intro')}</p>

      <div className="tool-card">
        <div className="d-flex flex-wrap gap-2">
          <Button variant="success" onClick={addUnit} data-testid="secondary-add">
            {t('irrigation.secondary.add')}
          </Button>
          <Button variant="outline-danger" onClick={reset} data-testid="secondary-reset">
            {t('irrigation.secondary.reset')}
          </Button>
          <Button variant="outline-success" onClick={accounting} data-testid="secondary-accounting">
            {t('irrigation.secondary.accounting')}
          </Button>
        </div>
        <InlineAlert message={pageAlert?.text} testId="secondary-page-alert" />
        <p
          className="small text-body-secondary mt-2 mb-0"
          aria-live="polite"
          data-testid="secondary-count"
        >
          {t('irrigation.secondary.count', { n: units.length })}
        </p>
      </div>

      {units.map((unit, index) => (
        <SectionForm
          key={unit.key}
          unit={unit}
          section={index + 1}
          lang={lang}
          onRaw={(field, value) =>
            setUnit(unit.key, (u) => ({ ...u, raw: { ...u.raw, [field]: value } }))
          }
          onCalculate={() => setUnit(unit.key, (u, i) => calculateUnit(u, i + 1, lang))}
          onClear={() =>
            setUnit(unit.key, (u) => ({ ...u, raw: emptyRaw(), result: null, alert: null }), true)
          }
          onDelete={() => deleteUnit(unit.key)}
        />
      ))}

      {summary && (
        <section
          className="tool-card mt-3"
          aria-labelledby={`${id}-sum`}
          data-testid="secondary-summary"
        >
          <h2 id={`${id}-sum`} className="h4">
            {t('irrigation.secondary.summaryTitle')}
          </h2>
          {summary.length === 0 ? (
            <p>{t('irrigation.secondary.summaryEmpty')}</p>
          ) : (
            <div
              className="table-responsive"
              tabIndex={0}
              role="region"
              aria-labelledby={`${id}-sum`}
            >
              <Table size="sm" striped className="tool-table">
                <thead>
                  <tr>
                    <th scope="col">{t('irrigation.secondary.cols.pipeType')}</th>
                    <th scope="col" className="num">
                      {t('irrigation.secondary.cols.nominal')}
                    </th>
                    <th scope="col" className="num">
                      {t('irrigation.secondary.cols.totalLength')}
                    </th>
                    <th scope="col" className="num">
                      {t('irrigation.secondary.cols.adjusted')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {summary.map((r) => (
                    <tr key={`${r.pipeType}-${r.nominalDiameter}`}>
                      <td>{r.pipeType}</td>
                      <td className="num">{fmt(r.nominalDiameter, 0)}</td>
                      <td className="num">{fmt(r.totalLength, 2)}</td>
                      <td className="num">{fmt(r.adjustedLength, 0)}</td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            </div>
          )}
          <p className="small text-body-secondary mb-0">{t('irrigation.secondary.summaryNote')}</p>
          {pressures && pressures.sections.length > 0 && (
            <div className="mt-3" data-testid="secondary-pressures">
              <h3 className="h6">{t('irrigation.secondary.pressuresTitle')}</h3>
              <ul className="mb-2">
                {pressures.sections.map((p) => (
                  <li key={p.section} data-section={p.section}>
                    {t('irrigation.secondary.sectionPressure', {
                      n: p.section,
                      pressure: fmt(p.inletPressure, 2),
                    })}
                  </li>
                ))}
              </ul>
              {pressures.required && (
                <p className="tool-sentence mb-0" data-testid="secondary-mainline-pressure">
                  {t('irrigation.secondary.mainlineSentence', {
                    n: pressures.required.section,
                    pressure: fmt(pressures.required.inletPressure, 2),
                  })}
                </p>
              )}
            </div>
          )}
        </section>
      )}

      {series.length > 0 && (
        <LineChart
          svgRef={svgRef}
          testId="secondary-chart"
          title={t('irrigation.secondary.chartTitle')}
          summary={t('irrigation.secondary.chartSummary', { n: series.length })}
          xLabel={t('irrigation.secondary.chartX')}
          yLabel={t('irrigation.secondary.chartY')}
          formatTick={(v) => formatNumber(v, lang, { maximumFractionDigits: 2 })}
          series={series}
          table={{
            caption: t('irrigation.secondary.chartTitle'),
            columns: [
              t('irrigation.secondary.section'),
              t('irrigation.secondary.chartFrom'),
              t('irrigation.secondary.chartTo'),
              t('irrigation.secondary.cols.nominal'),
            ],
            rows: stretchRows.map((r) => [
              String(r.section),
              fmt(r.from, 2),
              fmt(r.to, 2),
              fmt(r.stretch.nominalDiameter, 0),
            ]),
          }}
        />
      )}

      {profiles.length > 0 && (
        <LineChart
          svgRef={profileRef}
          testId="secondary-profile"
          yFromZero={false}
          title={t('irrigation.secondary.profileTitle')}
          summary={t('irrigation.secondary.profileSummary', { n: profiles.length })}
          xLabel={t('irrigation.secondary.chartX')}
          yLabel={t('irrigation.secondary.cols.pressure')}
          formatTick={(v) => formatNumber(v, lang, { maximumFractionDigits: 2 })}
          series={profiles.map(({ section, inlet, outlets }, i) => ({
            id: `p${section}`,
            label: t('irrigation.secondary.sectionN', { n: section }),
            color: CHART_COLORS[i % CHART_COLORS.length]!,
            points: [{ x: 0, y: inlet }, ...outlets.map((o) => ({ x: o.distance, y: o.pressure }))],
            markers: outlets.length <= 40,
          }))}
          table={{
            caption: t('irrigation.secondary.profileTitle'),
            columns: [
              t('irrigation.secondary.section'),
              t('irrigation.secondary.cols.inletPressure'),
              t('irrigation.secondary.cols.lastPressure'),
            ],
            rows: profiles.map((p) => [
              String(p.section),
              fmt(p.inlet, 2),
              fmt(p.outlets.at(-1)!.pressure, 2),
            ]),
          }}
        />
      )}

      <ExportBar
        labels={labels}
        disabled={units.length === 0}
        onCsv={csv}
        onPdf={pdf}
        onSaveJson={() =>
          downloadFile(
            `${fileStem(KIND)}.json`,
            'application/json',
            JSON.stringify(designFile(KIND, saved), null, 2),
          )
        }
        onLoadJson={(text) => {
          const loaded = parseSaved(readDesignFile(text, KIND));
          if (!loaded) return false;
          setPageAlert(null);
          setState(restore(loaded, lang));
          return true;
        }}
      />
    </section>
  );
}

function SectionForm({
  unit,
  section,
  lang,
  onRaw,
  onCalculate,
  onClear,
  onDelete,
}: {
  unit: Unit;
  section: number;
  lang: Language;
  onRaw: (field: Field, value: string) => void;
  onCalculate: () => void;
  onClear: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const f = (v: number, d: number) =>
    formatNumber(v, lang, { minimumFractionDigits: d, maximumFractionDigits: d });
  const alertFor = (field: Field) => (unit.alert?.field === field ? unit.alert.message : null);
  const { result } = unit;
  const status = result
    ? { text: result.statusText, variant: result.status === 'ok' ? 'success' : 'danger' }
    : { text: STATUS_HERE, variant: 'secondary' };
  const pipeAlert = alertFor('pipeType');

  return (
    <section
      className="tool-card tool-section-card mt-3"
      aria-labelledby={`${id}-h`}
      data-testid="secondary-section"
      data-section={section}
    >
      <h2 id={`${id}-h`} className="h5">
        {t('irrigation.secondary.sectionN', { n: section })}
      </h2>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          onCalculate();
        }}
      >
        <Row className="g-2">
          <Col xs={12} sm={6} lg={3}>
            <Form.Label htmlFor={`${id}-pipe`} className="mb-1">
              {t('irrigation.secondary.fields.pipeType')}
            </Form.Label>
            <Form.Select
              id={`${id}-pipe`}
              size="sm"
              value={unit.raw.pipeType}
              isInvalid={Boolean(pipeAlert)}
              aria-describedby={pipeAlert ? `${id}-pipe-alert` : undefined}
              onChange={(e) => onRaw('pipeType', e.target.value)}
              data-testid="secondary-pipeType"
            >
              <option value="">{t('irrigation.choose')}</option>
              {SECONDARY_PIPE_TYPES.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </Form.Select>
            <InlineAlert
              id={`${id}-pipe-alert`}
              message={pipeAlert}
              testId="secondary-pipeType-alert"
            />
          </Col>
          {NUMBER_FIELDS.map((field) => (
            <Col key={field.key} xs={6} sm={6} lg={3} xl>
              <NumberField
                label={t(`irrigation.secondary.fields.${field.key}`)}
                unit={field.unit || undefined}
                value={unit.raw[field.key]}
                onChange={(v) => onRaw(field.key, v)}
                alert={alertFor(field.key)}
                testId={`secondary-${field.key}`}
              />
            </Col>
          ))}
        </Row>
        <Row className="g-2 mt-1">
          <Col xs={12} sm={6} lg={4}>
            <Form.Label htmlFor={`${id}-formula`} className="mb-1">
              {t('irrigation.formula')}
            </Form.Label>
            <Form.Select
              id={`${id}-formula`}
              size="sm"
              value={unit.raw.formula ?? DEFAULT_FRICTION_FORMULA}
              isInvalid={Boolean(alertFor('formula'))}
              onChange={(e) => onRaw('formula', e.target.value)}
              data-testid="secondary-formula"
            >
              {FRICTION_FORMULAS.map((f) => (
                <option key={f} value={f}>
                  {FRICTION_FORMULA_LABELS[f][lang]}
                </option>
              ))}
            </Form.Select>
            <InlineAlert message={alertFor('formula')} testId="secondary-formula-alert" />
          </Col>
          <Col xs={12} sm={6} lg={4}>
            <NumberField
              label={t('irrigation.secondary.fields.pressure')}
              hint={t('irrigation.secondary.pressureHint')}
              unit="m"
              value={unit.raw.pressure ?? ''}
              onChange={(v) => onRaw('pressure', v)}
              alert={alertFor('pressure')}
              testId="secondary-pressure"
            />
          </Col>
        </Row>
        <SectionActions tool="secondary" onClear={onClear} onDelete={onDelete} className="mt-3" />
      </form>
      <div className="mt-2">
        <StatusLine
          text={status.text}
          variant={status.variant as 'secondary' | 'success' | 'danger'}
          testId="secondary-status"
        />
        {result?.alert && (
          <InlineAlert
            message={result.alert}
            variant={result.status === 'ok' ? 'warning' : 'danger'}
            testId="secondary-result-alert"
          />
        )}
        {result && result.stretches.length > 0 && (
          <div
            className="table-responsive mt-2"
            tabIndex={0}
            role="region"
            aria-label={t('irrigation.secondary.resultsCaption', { n: section })}
          >
            <Table size="sm" striped className="tool-table" data-testid="secondary-results">
              <caption className="visually-hidden">
                {t('irrigation.secondary.resultsCaption', { n: section })}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t('irrigation.secondary.cols.pipeType')}</th>
                  <th scope="col" className="num">
                    {t('irrigation.secondary.cols.nominal')}
                  </th>
                  <th scope="col" className="num">
                    {t('irrigation.secondary.cols.length')}
                  </th>
                  <th scope="col" className="num">
                    {t('irrigation.secondary.cols.outlets')}
                  </th>
                  <th scope="col" className="num">
                    {t('irrigation.secondary.cols.hf')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {result.stretches.map((s, i) => (
                  <tr key={i}>
                    <td>{s.pipeType}</td>
                    <td className="num">{f(s.nominalDiameter, 0)}</td>
                    <td className="num">{f(s.length, 2)}</td>
                    <td className="num">{f(s.outlets, 0)}</td>
                    <td className="num">{f(s.hf, 4)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">{t('irrigation.total')}</th>
                  <td />
                  <td className="num">
                    {f(
                      result.stretches.reduce((a, s) => a + s.length, 0),
                      2,
                    )}
                  </td>
                  <td className="num">{f(result.outlets, 0)}</td>
                  <td className="num">{f(result.hf, 4)}</td>
                </tr>
              </tfoot>
            </Table>
          </div>
        )}
        {result && <SectionPressures result={result} section={section} lang={lang} />}
      </div>
    </section>
  );
}

/** Issue 20: a section's formula, inlet pressure and the pressure at every outlet. */
function SectionPressures({
  result,
  section,
  lang,
}: {
  result: SecondarySectionResult;
  section: number;
  lang: Language;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [open, setOpen] = useState(false);
  const f = (v: number, d: number) =>
    formatNumber(v, lang, { minimumFractionDigits: d, maximumFractionDigits: d });
  const pressures = result.outletPressures;
  return (
    <div className="mt-2">
      <p className="small mb-1" data-testid="secondary-formula-used">
        {t('irrigation.formulaUsed', {
          formula: FRICTION_FORMULA_LABELS[result.formula][lang],
        })}
      </p>
      {result.blasiusOutOfRange && (
        <InlineAlert
          variant="warning"
          message={DESIGN_MESSAGES[lang].blasiusRange}
          testId="secondary-blasius-note"
        />
      )}
      {pressures && result.inletPressure !== null && (
        <>
          <p className="mb-1 fw-semibold" data-testid="secondary-inlet-pressure">
            {t('irrigation.secondary.inletPressure', {
              pressure: f(result.inletPressure, 2),
              last: f(pressures.at(-1)!, 2),
            })}
          </p>
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary"
            aria-expanded={open}
            aria-controls={`${id}-outlets`}
            onClick={() => setOpen((v) => !v)}
            data-testid="secondary-outlets-toggle"
          >
            {t(open ? 'irrigation.secondary.hideOutlets' : 'irrigation.secondary.showOutlets', {
              n: pressures.length,
            })}
          </button>
          {open && (
            <div
              id={`${id}-outlets`}
              className="tool-table-scroll mt-2"
              tabIndex={0}
              role="region"
              aria-label={t('irrigation.secondary.outletsCaption', { n: section })}
            >
              <Table size="sm" striped className="tool-table" data-testid="secondary-outlets">
                <thead>
                  <tr>
                    <th scope="col" className="num">
                      {t('irrigation.secondary.cols.outlet')}
                    </th>
                    <th scope="col" className="num">
                      {t('irrigation.secondary.cols.pressure')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {pressures.map((p, i) => (
                    <tr key={i}>
                      <td className="num">{f(i + 1, 0)}</td>
                      <td className="num">{f(p, 3)}</td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            </div>
          )}
        </>
      )}
    </div>
  );
}
