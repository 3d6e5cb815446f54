import { useEffect, useId, useMemo, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useTranslation } from 'react-i18next';
import {
  MAINLINE_NOMINAL_DIAMETERS,
  MAINLINE_PIPE_TYPES,
  STATUS_HERE,
  availableNominalDiameters,
  designMainline,
  designMainlineSection,
  mainlineTotals,
  resolveMainlinePipeType,
  toEpanetInp,
  validateInitialPressure,
  validateMainlineSection,
  type MainlineSectionInput,
  type MainlineSectionRaw,
  type MainlineSectionResult,
  type MainlineTotals,
} from '@diagrodl/hydraulics';
import { ExportBar } from '../shared/ExportBar.tsx';
import { InlineAlert } from '@/components/InlineAlert.tsx';
import { LineChart } from '../shared/LineChart.tsx';
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
} from '../shared/export.ts';
import { formatNumber } from '@/lib/format.ts';
import type { Language } from '@/lib/i18n.ts';
import { useNumberFormat } from '../shared/useNumberFormat.ts';
import { NumberField, SectionActions, StatusLine, useExportLabels } from '../shared/fields.tsx';
import '../shared/tools.css';

const KIND = 'mainline';
type Field = keyof MainlineSectionRaw;
const FIELDS: readonly Field[] = ['pipeType', 'nominalDiameter', 'flow', 'length', 'slope'];

interface Section {
  key: number;
  raw: MainlineSectionRaw;
  input: MainlineSectionInput | null;
  result: MainlineSectionResult | null;
  alert: { field: string; message: string } | null;
}

const emptyRaw = (): MainlineSectionRaw => ({
  pipeType: '',
  nominalDiameter: '',
  flow: '',
  length: '',
  slope: '',
});

function calculateSection(s: Section, number: number): Section {
  const check = validateMainlineSection(s.raw, number);
  if (!check.ok) {
    return {
      ...s,
      input: null,
      result: null,
      alert: { field: check.field, message: check.message },
    };
  }
  const result = designMainlineSection(check.value, number);
  const alert =
    result.innerDiameter === null ? { field: 'nominalDiameter', message: result.message } : null;
  return { ...s, input: check.value, result, alert };
}

interface State {
  initialPressure: string;
  sections: Section[];
  totals: MainlineTotals | null;
  nextKey: number;
}

interface Saved {
  initialPressure: string;
  sections: { raw: MainlineSectionRaw; calculated: boolean }[];
  totals: boolean;
}

function parseSaved(data: unknown): Saved | null {
  if (!is.record(data) || !is.string(data.initialPressure) || !Array.isArray(data.sections)) {
    return null;
  }
  const sections: Saved['sections'] = [];
  for (const s of data.sections) {
    if (!is.record(s) || !is.stringRecord(s.raw, FIELDS)) return null;
    const raw = Object.fromEntries(FIELDS.map((f) => [f, (s.raw as Record<Field, string>)[f]]));
    sections.push({ raw: raw as MainlineSectionRaw, calculated: s.calculated === true });
  }
  return { initialPressure: data.initialPressure, sections, totals: data.totals === true };
}

function computeTotals(initialPressure: number, sections: Section[]): MainlineTotals {
  const inputs: MainlineSectionInput[] = [];
  const results: MainlineSectionResult[] = [];
  sections.forEach((s, i) => {
    inputs.push(
      s.input ?? { pipeType: 'PVC_RD26', nominalDiameter: 50, flow: 0, length: 0, slope: 0 },
    );
    results.push(
      s.result ?? {
        section: i + 1,
        status: 'error',
        message: s.alert?.message ?? STATUS_HERE,
        innerDiameter: null,
        velocity: null,
        hf: null,
      },
    );
  });
  return mainlineTotals(initialPressure, inputs, results);
}

function restore(saved: Saved | null): State {
  if (!saved) {
    return {
      initialPressure: '',
      sections: [{ key: 1, raw: emptyRaw(), input: null, result: null, alert: null }],
      totals: null,
      nextKey: 2,
    };
  }
  const sections = saved.sections.map((s, i) => {
    const section: Section = { key: i + 1, raw: s.raw, input: null, result: null, alert: null };
    return s.calculated ? calculateSection(section, i + 1) : section;
  });
  const pressure = validateInitialPressure(saved.initialPressure);
  const totals = saved.totals && pressure.ok ? computeTotals(pressure.value, sections) : null;
  return { initialPressure: saved.initialPressure, sections, totals, nextKey: sections.length + 1 };
}

export default function MainlinePage() {
  const { t } = useTranslation();
  const { lang, fmt } = useNumberFormat();
  useDocumentTitle(t('routes./Principal_designer'));
  const id = useId();
  const [state, setState] = useState<State>(() => restore(parseSaved(loadAutosave(KIND))));
  const [pressureAlert, setPressureAlert] = useState<string | null>(null);
  const [exportMessage, setExportMessage] = useState<string | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const labels = useExportLabels();
  const first = useRef(true);
  const { sections, totals } = state;

  const saved: Saved = useMemo(
    () => ({
      initialPressure: state.initialPressure,
      sections: state.sections.map((s) => ({ raw: s.raw, calculated: s.result !== null })),
      totals: state.totals !== null,
    }),
    [state],
  );
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    autosave(KIND, saved);
  }, [saved]);

  /** The initial-pressure rule: a number >= 0.1 m, otherwise the alert and the field cleared. */
  const checkPressure = (): number | null => {
    const check = validateInitialPressure(state.initialPressure);
    if (!check.ok) {
      setPressureAlert(check.message);
      setState((s) => ({ ...s, initialPressure: '', totals: null }));
      return null;
    }
    setPressureAlert(null);
    return check.value;
  };

  const setSection = (
    key: number,
    update: (s: Section, index: number) => Section,
    clearTotals = false,
  ) =>
    setState((st) => ({
      ...st,
      sections: st.sections.map((s, i) => (s.key === key ? update(s, i) : s)),
      totals: clearTotals ? null : st.totals,
    }));

  const add = () => {
    setExportMessage(null);
    setState((s) => ({
      ...s,
      sections: [
        ...s.sections,
        { key: s.nextKey, raw: emptyRaw(), input: null, result: null, alert: null },
      ],
      nextKey: s.nextKey + 1,
    }));
  };

  const reset = () => {
    setPressureAlert(null);
    setExportMessage(null);
    setState((s) => ({ initialPressure: '', sections: [], totals: null, nextKey: s.nextKey }));
  };

  const remove = (key: number) => {
    setExportMessage(null);
    setState((st) => ({
      ...st,
      totals: null,
      sections: st.sections
        .filter((s) => s.key !== key)
        .map((s, i) => (s.result || s.alert ? calculateSection(s, i + 1) : s)),
    }));
  };

  const calculateTotals = () => {
    setExportMessage(null);
    const pressure = checkPressure();
    if (pressure === null) return;
    setState((st) => {
      const calculated = st.sections.map((s, i) => calculateSection(s, i + 1));
      return { ...st, sections: calculated, totals: computeTotals(pressure, calculated) };
    });
  };

  const exportEpanet = () => {
    const pressure = checkPressure();
    if (pressure === null) {
      setExportMessage(t('irrigation.mainline.epanetNeedsPressure'));
      return;
    }
    const calculated = sections.map((s, i) => calculateSection(s, i + 1));
    setState((st) => ({ ...st, sections: calculated }));
    const ready =
      calculated.length > 0 &&
      calculated.every((s) => s.input !== null && s.result?.innerDiameter != null);
    if (!ready) {
      setExportMessage(t('irrigation.mainline.epanetNeedsSections'));
      return;
    }
    setExportMessage(null);
    const design = designMainline({
      initialPressure: pressure,
      sections: calculated.map((s) => s.input!),
    });
    downloadFile(`${fileStem(KIND)}.inp`, 'text/plain;charset=utf-8', toEpanetInp(design));
  };

  // Pressure profile along the line: the head falls by the Hf of each OK section (the sections the
  // totals count); a section in error keeps the pressure (its loss is unknown or rejected).
  const profile = useMemo(() => {
    if (!totals) return [];
    const points = [{ x: 0, y: totals.initialPressure }];
    let x = 0;
    let p = totals.initialPressure;
    for (const s of sections) {
      if (!s.input) continue;
      x += s.input.length;
      if (s.result?.status === 'ok') p -= s.result.hf!;
      points.push({ x, y: p });
    }
    return points;
  }, [sections, totals]);

  const pipeLabel = (value: string) => {
    const info = MAINLINE_PIPE_TYPES.find((p) => p.id === resolveMainlinePipeType(value));
    return info ? `${info.code} ${info.label[lang]}` : value;
  };

  const totalsRows = (): [string, string][] =>
    totals
      ? [
          [t('irrigation.mainline.totals.initialPressure'), `${fmt(totals.initialPressure, 3)} m`],
          [t('irrigation.mainline.totals.hfTotal'), `${fmt(totals.hfTotal, 3)} m`],
          [t('irrigation.mainline.totals.endPressure'), `${fmt(totals.endPressure, 3)} m`],
          [t('irrigation.mainline.totals.maxFlow'), `${fmt(totals.maxFlow, 3)} L/s`],
          [t('irrigation.mainline.totals.maxVelocity'), `${fmt(totals.maxVelocity, 3)} m/s`],
        ]
      : [];

  const csv = () => {
    const rows: (string | number)[][] = [
      [t('irrigation.mainline.initialPressure'), state.initialPressure, 'm'],
      [],
      [
        t('irrigation.mainline.section'),
        t('irrigation.mainline.fields.pipeType'),
        t('irrigation.mainline.fields.nominalDiameter'),
        t('irrigation.mainline.fields.flow'),
        t('irrigation.mainline.fields.length'),
        t('irrigation.mainline.fields.slope'),
        t('irrigation.mainline.fields.velocity'),
        t('irrigation.mainline.fields.hf'),
        t('irrigation.status'),
      ],
      ...sections.map((s, i) => [
        i + 1,
        s.raw.pipeType,
        s.raw.nominalDiameter,
        s.input?.flow ?? s.raw.flow,
        s.input?.length ?? s.raw.length,
        s.input?.slope ?? s.raw.slope,
        s.result?.velocity ?? '',
        s.result?.hf ?? '',
        s.result?.message ?? STATUS_HERE,
      ]),
    ];
    if (totals) {
      rows.push(
        [],
        [
          t('irrigation.mainline.totals.title'),
          t('irrigation.csv.value'),
          t('irrigation.csv.unit'),
        ],
        [t('irrigation.mainline.totals.initialPressure'), totals.initialPressure, 'm'],
        [t('irrigation.mainline.totals.hfTotal'), totals.hfTotal, 'm'],
        [t('irrigation.mainline.totals.endPressure'), totals.endPressure, 'm'],
        [t('irrigation.mainline.totals.maxFlow'), totals.maxFlow, 'L/s'],
        [t('irrigation.mainline.totals.maxVelocity'), totals.maxVelocity, 'm/s'],
      );
      if (totals.message) rows.push([totals.message]);
    }
    downloadFile(`${fileStem(KIND)}.csv`, 'text/csv;charset=utf-8', toCsv(rows));
  };

  const pdf = async () => {
    const image = svgRef.current ? await svgToPng(svgRef.current) : null;
    // pdf-lib is large: it loads only when a PDF is asked for.
    const { buildPdfReport } = await import('../shared/pdf.ts');
    const bytes = await buildPdfReport({
      title: t('irrigation.mainline.title'),
      subtitle: new Date().toLocaleString(lang === 'en' ? 'en-US' : 'es-MX'),
      rowsLeftOut: t('irrigation.pdf.rowsLeftOut'),
      blocks: [
        {
          kind: 'pairs',
          heading: t('irrigation.pdf.inputs'),
          rows: [[t('irrigation.mainline.initialPressure'), `${state.initialPressure} m`]],
        },
        {
          kind: 'table',
          heading: t('irrigation.mainline.sectionsTitle'),
          columns: [
            '#',
            t('irrigation.mainline.fields.pipeType'),
            'DN (mm)',
            'Q (L/s)',
            'L (m)',
            t('irrigation.mainline.fields.slope'),
            'V (m/s)',
            'Hf (m)',
            t('irrigation.status'),
          ],
          rows: sections.map((s, i) => [
            String(i + 1),
            pipeLabel(s.raw.pipeType),
            s.raw.nominalDiameter,
            s.raw.flow,
            s.raw.length,
            s.raw.slope,
            s.result?.velocity != null ? fmt(s.result.velocity, 3) : '',
            s.result?.hf != null ? fmt(s.result.hf, 3) : '',
            s.result?.message ?? STATUS_HERE,
          ]),
          maxRows: 20,
        },
        ...(totals
          ? [
              {
                kind: 'pairs' as const,
                heading: t('irrigation.mainline.totals.title'),
                rows: totalsRows(),
              },
              ...(totals.message
                ? [{ kind: 'text' as const, text: totals.message, tone: 'danger' as const }]
                : []),
            ]
          : []),
        {
          kind: 'chart',
          heading: t('irrigation.mainline.chartTitle'),
          image,
        },
      ],
    });
    downloadFile(`${fileStem(KIND)}.pdf`, 'application/pdf', bytes);
  };

  return (
    <section className="tool-page" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`} className="h2">
        {t('irrigation.mainline.title')}
      </h1>
      <p className="text-body-secondary">{t('irrigation.mainline.intro')}</p>

      <div className="tool-card">
        <Row className="g-3 align-items-end">
          <Col xs={12} sm={6} lg={4}>
            <NumberField
              label={t('irrigation.mainline.initialPressure')}
              unit="m"
              value={state.initialPressure}
              onChange={(v) => {
                setPressureAlert(null);
                setState((s) => ({ ...s, initialPressure: v }));
              }}
              alert={pressureAlert}
              testId="mainline-pressure"
            />
          </Col>
          <Col xs={12} sm={6} lg={8}>
            <div className="d-flex flex-wrap gap-2">
              <Button variant="success" onClick={add} data-testid="mainline-add">
                {t('irrigation.mainline.add')}
              </Button>
              <Button variant="outline-danger" onClick={reset} data-testid="mainline-reset">
                {t('irrigation.mainline.reset')}
              </Button>
              <Button
                variant="outline-success"
                onClick={calculateTotals}
                data-testid="mainline-totals-button"
              >
                {t('irrigation.mainline.calculateTotals')}
              </Button>
            </div>
          </Col>
        </Row>
      </div>

      {sections.map((s, index) => (
        <SectionForm
          key={s.key}
          section={s}
          number={index + 1}
          lang={lang}
          onRaw={(field, value) =>
            setSection(s.key, (x) => {
              const raw = { ...x.raw, [field]: value };
              // A new pipe type keeps the diameter only if the catalogue has it.
              if (field === 'pipeType' && raw.nominalDiameter) {
                const type = resolveMainlinePipeType(value);
                const sizes: number[] = type ? availableNominalDiameters(type) : [];
                if (!sizes.includes(Number(raw.nominalDiameter))) raw.nominalDiameter = '';
              }
              return { ...x, raw };
            })
          }
          onCalculate={() => setSection(s.key, (x, i) => calculateSection(x, i + 1))}
          onClear={() =>
            setSection(
              s.key,
              (x) => ({ ...x, raw: emptyRaw(), input: null, result: null, alert: null }),
              true,
            )
          }
          onDelete={() => remove(s.key)}
        />
      ))}

      {totals && (
        <section
          className="tool-card mt-3"
          aria-labelledby={`${id}-tot`}
          data-testid="mainline-totals"
        >
          <h2 id={`${id}-tot`} className="h4">
            {t('irrigation.mainline.totals.title')}
          </h2>
          <InlineAlert message={totals.message} testId="mainline-totals-alert" />
          <dl className="row mb-0 mt-2">
            {totalsRows().map(([label, value]) => (
              <div key={label} className="col-12 col-sm-6 col-lg-4 d-flex gap-2">
                <dt className="fw-normal">{label}:</dt>
                <dd className="fw-bold mb-1">{value}</dd>
              </div>
            ))}
          </dl>
          {profile.length > 1 && (
            <LineChart
              svgRef={svgRef}
              testId="mainline-chart"
              title={t('irrigation.mainline.chartTitle')}
              summary={t('irrigation.mainline.chartSummary', {
                start: fmt(totals.initialPressure, 2),
                end: fmt(totals.endPressure, 2),
                length: fmt(profile[profile.length - 1]!.x, 2),
              })}
              xLabel={t('irrigation.mainline.chartX')}
              yLabel={t('irrigation.mainline.chartY')}
              formatTick={(v) => formatNumber(v, lang, { maximumFractionDigits: 2 })}
              series={[
                {
                  id: 'pressure',
                  label: t('irrigation.mainline.chartY'),
                  color: '#1f5fa8',
                  points: profile,
                  markers: true,
                },
              ]}
              referenceLines={[{ y: 0, label: '0 m', color: '#a0182f' }]}
              table={{
                caption: t('irrigation.mainline.chartTitle'),
                columns: [t('irrigation.mainline.chartX'), t('irrigation.mainline.chartY')],
                rows: profile.map((p) => [fmt(p.x, 2), fmt(p.y, 3)]),
              }}
            />
          )}
        </section>
      )}

      <ExportBar
        labels={labels}
        disabled={sections.length === 0}
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
          setPressureAlert(null);
          setExportMessage(null);
          setState(restore(loaded));
          return true;
        }}
        message={exportMessage}
      >
        <Button
          variant="outline-primary"
          size="sm"
          onClick={exportEpanet}
          data-testid="mainline-epanet"
        >
          {t('irrigation.mainline.epanet')}
        </Button>
      </ExportBar>
    </section>
  );
}

function SectionForm({
  section,
  number,
  lang,
  onRaw,
  onCalculate,
  onClear,
  onDelete,
}: {
  section: Section;
  number: number;
  lang: Language;
  onRaw: (field: Field, value: string) => void;
  onCalculate: () => void;
  onClear: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const alertFor = (field: Field) =>
    section.alert?.field === field ? section.alert.message : null;
  const { result, raw } = section;
  const type = resolveMainlinePipeType(raw.pipeType);
  const available: number[] = type ? availableNominalDiameters(type) : [];
  const f3 = (v: number | null | undefined) =>
    v === null || v === undefined
      ? ''
      : formatNumber(v, lang, { minimumFractionDigits: 3, maximumFractionDigits: 3 });
  const status = result
    ? { text: result.message, variant: result.status === 'ok' ? 'success' : 'danger' }
    : { text: STATUS_HERE, variant: 'secondary' };

  const select = (
    field: 'pipeType' | 'nominalDiameter',
    label: string,
    options: [string, string][],
  ) => {
    const alert = alertFor(field);
    return (
      <>
        <Form.Label htmlFor={`${id}-${field}`} className="mb-1">
          {label}
        </Form.Label>
        <Form.Select
          id={`${id}-${field}`}
          size="sm"
          value={raw[field]}
          isInvalid={Boolean(alert)}
          aria-describedby={alert ? `${id}-${field}-alert` : undefined}
          onChange={(e) => onRaw(field, e.target.value)}
          data-testid={`mainline-${field}`}
        >
          <option value="">{t('irrigation.choose')}</option>
          {options.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </Form.Select>
        <InlineAlert
          id={`${id}-${field}-alert`}
          message={alert}
          testId={`mainline-${field}-alert`}
        />
      </>
    );
  };

  return (
    <section
      className="tool-card tool-section-card mt-3"
      aria-labelledby={`${id}-h`}
      data-testid="mainline-section"
      data-section={number}
    >
      <h2 id={`${id}-h`} className="h5">
        {t('irrigation.mainline.sectionN', { n: number })}
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
            {select(
              'pipeType',
              t('irrigation.mainline.fields.pipeType'),
              MAINLINE_PIPE_TYPES.map((p) => [p.id, `${p.code} · ${p.label[lang]}`]),
            )}
          </Col>
          <Col xs={12} sm={6} lg={3}>
            {select(
              'nominalDiameter',
              t('irrigation.mainline.fields.nominalDiameter'),
              MAINLINE_NOMINAL_DIAMETERS.map((d) => [
                String(d),
                type && !available.includes(d)
                  ? `${d} mm (${t('irrigation.mainline.unavailable')})`
                  : `${d} mm`,
              ]),
            )}
          </Col>
          <Col xs={6} sm={4} lg={2}>
            <NumberField
              label={t('irrigation.mainline.fields.flow')}
              unit="L/s"
              value={raw.flow}
              onChange={(v) => onRaw('flow', v)}
              alert={alertFor('flow')}
              testId="mainline-flow"
            />
          </Col>
          <Col xs={6} sm={4} lg={2}>
            <NumberField
              label={t('irrigation.mainline.fields.length')}
              unit="m"
              value={raw.length}
              onChange={(v) => onRaw('length', v)}
              alert={alertFor('length')}
              testId="mainline-length"
            />
          </Col>
          <Col xs={12} sm={4} lg={2}>
            <NumberField
              label={t('irrigation.mainline.fields.slope')}
              value={raw.slope}
              onChange={(v) => onRaw('slope', v)}
              alert={alertFor('slope')}
              testId="mainline-slope"
            />
          </Col>
          <Col xs={6} sm={6} lg={3}>
            <NumberField
              label={t('irrigation.mainline.fields.velocity')}
              unit="m/s"
              value={f3(result?.velocity)}
              readOnly
              testId="mainline-velocity"
            />
          </Col>
          <Col xs={6} sm={6} lg={3}>
            <NumberField
              label={t('irrigation.mainline.fields.hf')}
              unit="m"
              value={f3(result?.hf)}
              readOnly
              testId="mainline-hf"
            />
          </Col>
        </Row>
        <StatusLine
          text={status.text}
          variant={status.variant as 'secondary' | 'success' | 'danger'}
          testId="mainline-status"
        />
        <SectionActions tool="mainline" onClear={onClear} onDelete={onDelete} />
      </form>
    </section>
  );
}
