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
  EMITTER_DEFAULTS,
  FRICTION_FORMULAS,
  FRICTION_FORMULA_LABELS,
  LATERAL_DEFAULTS,
  designLateral,
  isFrictionFormula,
  parseDecimal,
  type FrictionFormula,
  type LateralInput,
  type LateralOptions,
  type LateralResult,
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
  type CsvCell,
} from '../shared/export.ts';
import { formatNumber } from '@/lib/format.ts';
import type { Language } from '@/lib/i18n.ts';
import { useNumberFormat } from '../shared/useNumberFormat.ts';
import { NumberField, useExportLabels } from '../shared/fields.tsx';
import { LateralDesignResult, lateralDesignCsv, lateralDesignPdf } from './LateralDesign.tsx';
import '../shared/tools.css';

const KIND = 'lateral';

/** The nine inputs in the specification's order, with their units (m is read-only). */
export const LATERAL_FIELDS = [
  { key: 'Po', name: 'Po', unit: 'mca' },
  { key: 'lossEmitter', name: 'Loss_emitter', unit: 'm' },
  { key: 'qEmitter', name: 'Q_emitter', unit: 'L/h' },
  { key: 'spaceEmitter', name: 'Space_emitter', unit: 'm' },
  { key: 'C', name: 'N_HZ', unit: '' },
  { key: 'hfAdminPerc', name: 'Hf_admin_perc', unit: '' },
  { key: 'D', name: 'D_LL', unit: 'm' },
  { key: 'm', name: 'm', unit: '' },
  { key: 'slope', name: 'Slope', unit: '' },
] as const satisfies readonly { key: keyof LateralInput; name: string; unit: string }[];

type FieldKey = (typeof LATERAL_FIELDS)[number]['key'];
type Raw = Record<FieldKey, string>;
const KEYS = LATERAL_FIELDS.map((f) => f.key);

/** Result table columns (specification §3) and the decimals shown for each. */
export const LATERAL_COLUMNS = [
  { name: 'N_emitter', key: 'n', digits: 0 },
  { name: 'Le_real', key: 'leReal', digits: 2 },
  { name: 'Le_equiv', key: 'leEquiv', digits: 2 },
  { name: 'Qa_m3/s', key: 'qa', digits: -1 },
  { name: "HF'", key: 'hfUnit', digits: 6 },
  { name: 'F', key: 'F', digits: 4 },
  { name: 'HF_meter', key: 'hf', digits: 6 },
  { name: 'Slope', key: 'slope', digits: 4 },
  { name: 'HF+Slope_meter', key: 'hfSlope', digits: 6 },
] as const;

/** Issue 20's inputs (beyond the specification): emitter law, uniformity, a fixed lateral. */
export const LATERAL_EXTRA_FIELDS = [
  { key: 'x', name: 'x' },
  { key: 'cv', name: 'Cv' },
  { key: 'emittersPerPlant', name: 'n' },
] as const;
type ExtraKey = (typeof LATERAL_EXTRA_FIELDS)[number]['key'];
const EXTRA_KEYS = LATERAL_EXTRA_FIELDS.map((f) => f.key);
const FIX_MODES = ['table', 'length', 'emitters'] as const;
type FixMode = (typeof FIX_MODES)[number];

interface Extra extends Record<ExtraKey, string> {
  formula: FrictionFormula;
  fix: FixMode;
  fixValue: string;
}

const defaultRaw = (): Raw =>
  Object.fromEntries(KEYS.map((k) => [k, String(LATERAL_DEFAULTS[k])])) as Raw;
const defaultExtra = (): Extra => ({
  formula: DEFAULT_FRICTION_FORMULA,
  x: String(EMITTER_DEFAULTS.x),
  cv: String(EMITTER_DEFAULTS.cv),
  emittersPerPlant: String(EMITTER_DEFAULTS.emittersPerPlant),
  fix: 'table',
  fixValue: '',
});

interface Calculation {
  input: LateralInput;
  options: LateralOptions;
}

interface Saved {
  raw: Raw;
  extra: Extra;
  calculation: Calculation | null;
}

/** A saved design; files saved before issue 20 have no `extra` and get its defaults. */
function parseSaved(data: unknown): Saved | null {
  if (!is.record(data) || !is.stringRecord(data.raw, KEYS)) return null;
  const raw = { ...(data.raw as Raw), m: String(LATERAL_DEFAULTS.m) };
  const extra = defaultExtra();
  if (is.record(data.extra)) {
    const saved = data.extra;
    if (isFrictionFormula(saved.formula)) extra.formula = saved.formula;
    if ((FIX_MODES as readonly unknown[]).includes(saved.fix)) extra.fix = saved.fix as FixMode;
    for (const key of [...EXTRA_KEYS, 'fixValue'] as const) {
      if (typeof saved[key] === 'string') extra[key] = saved[key];
    }
  }
  const calculated = is.record(data.input) ? toCalculation(raw, extra) : null;
  return {
    raw,
    extra,
    calculation: calculated && 'value' in calculated ? calculated.value : null,
  };
}

function toCalculation(
  raw: Raw,
  extra: Extra,
): { value: Calculation } | { field: string; key: string } {
  const input = { ...LATERAL_DEFAULTS } as LateralInput;
  for (const key of KEYS) {
    const n = parseDecimal(raw[key]);
    if (n === null) return { field: key, key: 'irrigation.notANumber' };
    input[key] = n;
  }
  const options: LateralOptions = { formula: extra.formula };
  for (const key of EXTRA_KEYS) {
    const n = parseDecimal(extra[key]);
    if (n === null) return { field: key, key: 'irrigation.notANumber' };
    options[key] = n;
  }
  if (extra.fix !== 'table') {
    const n = parseDecimal(extra.fixValue);
    if (n === null) return { field: extra.fix, key: 'irrigation.notANumber' };
    options[extra.fix] = n;
  }
  return { value: { input, options } };
}

export default function LateralPage() {
  const { t } = useTranslation();
  const { lang, fmt } = useNumberFormat();
  useDocumentTitle(t('routes./Lateral_designer'));
  const id = useId();
  const saved = useMemo(() => parseSaved(loadAutosave(KIND)), []);
  const [raw, setRaw] = useState<Raw>(() => saved?.raw ?? defaultRaw());
  const [extra, setExtra] = useState<Extra>(() => saved?.extra ?? defaultExtra());
  const [calculation, setCalculation] = useState<Calculation | null>(
    () => saved?.calculation ?? null,
  );
  const [alert, setAlert] = useState<{ field: string; text: string } | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const profileRef = useRef<SVGSVGElement>(null);
  const labels = useExportLabels();
  const first = useRef(true);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    autosave(KIND, { raw, extra, input: calculation?.input ?? null });
  }, [raw, extra, calculation]);

  const input = calculation?.input ?? null;
  const result: LateralResult | null = useMemo(() => {
    if (!calculation) return null;
    try {
      return designLateral(calculation.input, calculation.options);
    } catch {
      return null;
    }
  }, [calculation]);

  const cell = (value: number, digits: number) =>
    digits < 0
      ? formatNumber(value, lang, {
          notation: 'scientific',
          maximumFractionDigits: 4,
          minimumFractionDigits: 4,
        })
      : fmt(value, digits);

  const calculate = () => {
    const parsed = toCalculation(raw, extra);
    if ('field' in parsed) {
      setAlert({ field: parsed.field, text: t(parsed.key) });
      return;
    }
    try {
      designLateral(parsed.value.input, parsed.value.options);
    } catch (err) {
      if (err instanceof HydraulicsInputError) {
        setAlert({
          field: err.field,
          text: t(`irrigation.lateral.invalid.${err.field}`, { defaultValue: err.message }),
        });
        return;
      }
      throw err;
    }
    setAlert(null);
    setCalculation(parsed.value);
  };

  const reset = () => {
    setRaw(defaultRaw());
    setExtra(defaultExtra());
    setCalculation(null);
    setAlert(null);
  };
  const blasius = extra.formula === 'darcy-weisbach-blasius';
  const formulaName = (f: FrictionFormula) => FRICTION_FORMULA_LABELS[f][lang];

  const fieldLabel = (f: (typeof LATERAL_FIELDS)[number]) =>
    `${f.name} · ${t(`irrigation.lateral.fields.${f.key}`)}`;

  const sentence = result
    ? t('irrigation.lateral.sentence', {
        n: fmt(result.maxEmitters, 0),
        length: fmt(result.maxLength, 2),
      })
    : '';
  const limitText = result ? t('irrigation.lateral.limit', { limit: fmt(result.limit, 2) }) : '';

  const csv = () => {
    if (!result || !input) return;
    const rows: CsvCell[][] = [
      [t('irrigation.csv.input'), t('irrigation.csv.value'), t('irrigation.csv.unit')],
      ...LATERAL_FIELDS.map((f) => [f.name, f.key === 'm' ? result.m : input[f.key], f.unit]),
      [],
      [t('irrigation.lateral.maxEmitters'), result.maxEmitters],
      [t('irrigation.lateral.maxLength'), result.maxLength, 'm'],
      [t('irrigation.lateral.limitLabel'), result.limit, 'm'],
      [],
      // Issue 20: the formula, the designed lateral and its profile, before the table.
      ...lateralDesignCsv(result, t, lang),
      [],
      LATERAL_COLUMNS.map((c) => c.name),
      ...result.rows.map((r) => LATERAL_COLUMNS.map((c) => r[c.key])),
    ];
    downloadFile(`${fileStem(KIND)}.csv`, 'text/csv;charset=utf-8', toCsv(rows));
  };

  const pdf = async () => {
    if (!result || !input) return;
    const image = svgRef.current ? await svgToPng(svgRef.current) : null;
    const profile = profileRef.current ? await svgToPng(profileRef.current) : null;
    // One page holds about 25 rows: every step-th row, always with the first and the last.
    const step = Math.max(1, Math.ceil(result.rows.length / 24));
    const sampled = result.rows.filter(
      (r, i) => i === 0 || r.n % step === 0 || i === result.rows.length - 1,
    );
    // pdf-lib is large: it loads only when a PDF is asked for.
    const { buildPdfReport } = await import('../shared/pdf.ts');
    const bytes = await buildPdfReport({
      title: t('irrigation.lateral.title'),
      subtitle: new Date().toLocaleString(lang === 'en' ? 'en-US' : 'es-MX'),
      rowsLeftOut: t('irrigation.pdf.rowsLeftOut'),
      blocks: [
        {
          kind: 'pairs',
          heading: t('irrigation.pdf.inputs'),
          rows: LATERAL_FIELDS.map(
            (f) =>
              [
                fieldLabel(f),
                `${formatPlain(f.key === 'm' ? result.m : input[f.key], lang)} ${f.unit}`.trim(),
              ] as const,
          ),
        },
        { kind: 'text', text: sentence, tone: 'success' },
        { kind: 'text', text: limitText },
        ...lateralDesignPdf(result, t, lang, fmt),
        {
          kind: 'charts',
          heading: `${t('irrigation.lateral.chartTitle')} · ${t('irrigation.lateral.design.chartTitle')}`,
          images: [image, profile],
        },
        {
          kind: 'table',
          heading: t('irrigation.lateral.tableTitle'),
          columns: LATERAL_COLUMNS.map((c) => c.name),
          rows: sampled.map((r) => LATERAL_COLUMNS.map((c) => cell(r[c.key], c.digits))),
        },
        ...(step > 1
          ? [{ kind: 'text' as const, text: t('irrigation.lateral.pdfSampled', { step }) }]
          : []),
      ],
    });
    downloadFile(`${fileStem(KIND)}.pdf`, 'application/pdf', bytes);
  };

  return (
    <section className="tool-page" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`} className="h2">
        {t('irrigation.lateral.title')}
      </h1>
      <p className="text-body-secondary">{t('irrigation.lateral.intro')}</p>
      <form
        noValidate
        className="tool-card"
        onSubmit={(e) => {
          e.preventDefault();
          calculate();
        }}
      >
        <Row className="g-3">
          {LATERAL_FIELDS.map((f) => (
            <Col key={f.key} xs={12} sm={6} lg={4}>
              <NumberField
                label={fieldLabel(f)}
                hint={blasius && f.key === 'C' ? t('irrigation.lateral.cUnused') : undefined}
                unit={f.unit || undefined}
                value={f.key === 'm' && blasius ? '1.75' : raw[f.key]}
                readOnly={f.key === 'm'}
                onChange={(v) => setRaw((r) => ({ ...r, [f.key]: v }))}
                alert={alert?.field === f.key ? alert.text : null}
                testId={`lateral-${f.name}`}
              />
            </Col>
          ))}
        </Row>
        <fieldset className="mt-3">
          <legend className="h6 mb-2">{t('irrigation.lateral.design.inputsTitle')}</legend>
          <Row className="g-3">
            <Col xs={12} sm={6} lg={4}>
              <Form.Label htmlFor={`${id}-formula`} className="mb-1">
                {t('irrigation.formula')}
              </Form.Label>
              <Form.Select
                id={`${id}-formula`}
                size="sm"
                value={extra.formula}
                onChange={(e) =>
                  setExtra((x) => ({ ...x, formula: e.target.value as FrictionFormula }))
                }
                data-testid="lateral-formula"
              >
                {FRICTION_FORMULAS.map((f) => (
                  <option key={f} value={f}>
                    {formulaName(f)}
                  </option>
                ))}
              </Form.Select>
            </Col>
            {LATERAL_EXTRA_FIELDS.map((f) => (
              <Col key={f.key} xs={12} sm={6} lg={4}>
                <NumberField
                  label={`${f.name} · ${t(`irrigation.lateral.design.fields.${f.key}`)}`}
                  value={extra[f.key]}
                  onChange={(v) => setExtra((x) => ({ ...x, [f.key]: v }))}
                  alert={alert?.field === f.key ? alert.text : null}
                  testId={`lateral-${f.key}`}
                />
              </Col>
            ))}
            <Col xs={12} sm={6} lg={4}>
              <Form.Label htmlFor={`${id}-fix`} className="mb-1">
                {t('irrigation.lateral.design.fix')}
              </Form.Label>
              <Form.Select
                id={`${id}-fix`}
                size="sm"
                value={extra.fix}
                onChange={(e) => setExtra((x) => ({ ...x, fix: e.target.value as FixMode }))}
                data-testid="lateral-fix"
              >
                {FIX_MODES.map((mode) => (
                  <option key={mode} value={mode}>
                    {t(`irrigation.lateral.design.fixModes.${mode}`)}
                  </option>
                ))}
              </Form.Select>
            </Col>
            {extra.fix !== 'table' && (
              <Col xs={12} sm={6} lg={4}>
                <NumberField
                  label={t(`irrigation.lateral.design.fixValue.${extra.fix}`)}
                  unit={extra.fix === 'length' ? 'm' : undefined}
                  value={extra.fixValue}
                  onChange={(v) => setExtra((x) => ({ ...x, fixValue: v }))}
                  alert={alert?.field === extra.fix ? alert.text : null}
                  testId="lateral-fixValue"
                />
              </Col>
            )}
          </Row>
        </fieldset>
        <div className="d-flex flex-wrap gap-2 mt-3">
          <Button type="submit" variant="success" data-testid="lateral-calculate">
            {t('irrigation.calculate')}
          </Button>
          <Button variant="outline-secondary" onClick={reset} data-testid="lateral-reset">
            {t('irrigation.lateral.reset')}
          </Button>
        </div>
      </form>

      {result && (
        <section
          className="tool-card mt-3"
          aria-labelledby={`${id}-r`}
          data-testid="lateral-result"
        >
          <h2 id={`${id}-r`} className="h4">
            {t('irrigation.results')}
          </h2>
          <p className="tool-sentence" data-testid="lateral-sentence">
            {sentence}
          </p>
          <p data-testid="lateral-limit">{limitText}</p>
          <LineChart
            svgRef={svgRef}
            testId="lateral-chart"
            title={t('irrigation.lateral.chartTitle')}
            summary={t('irrigation.lateral.chartSummary', {
              rows: result.rows.length,
              limit: fmt(result.limit, 2),
              length: fmt(result.maxLength, 2),
            })}
            xLabel={t('irrigation.lateral.chartX')}
            yLabel={t('irrigation.lateral.chartY')}
            formatTick={(v) => formatPlain(v, lang)}
            series={[
              {
                id: 'hfSlope',
                label: 'HF+Slope_meter',
                color: '#1f5fa8',
                points: result.rows.map((r) => ({ x: r.leReal, y: r.hfSlope })),
              },
            ]}
            referenceLines={[{ y: result.limit, label: limitText, color: '#a0182f' }]}
          />
          {result.blasiusOutOfRange && (
            <InlineAlert
              variant="warning"
              message={DESIGN_MESSAGES[lang].blasiusRange}
              testId="lateral-blasius-note"
            />
          )}
          <LateralDesignResult result={result} po={input!.Po} svgRef={profileRef} />
          <h3 className="h5" id={`${id}-t`}>
            {t('irrigation.lateral.tableTitle')}
          </h3>
          <div className="tool-table-scroll" tabIndex={0} role="region" aria-labelledby={`${id}-t`}>
            <Table size="sm" striped className="tool-table" data-testid="lateral-table">
              <thead>
                <tr>
                  {LATERAL_COLUMNS.map((c) => (
                    <th key={c.name} scope="col" className="num">
                      {c.name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {result.rows.map((r) => (
                  <tr
                    key={r.n}
                    className={r.hfSlope >= result.limit ? 'tool-row-limit' : undefined}
                  >
                    {LATERAL_COLUMNS.map((c) => (
                      <td key={c.name} className="num">
                        {cell(r[c.key], c.digits)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </Table>
          </div>
        </section>
      )}

      <ExportBar
        labels={labels}
        disabled={!result}
        onCsv={csv}
        onPdf={pdf}
        onSaveJson={() =>
          downloadFile(
            `${fileStem(KIND)}.json`,
            'application/json',
            JSON.stringify(designFile(KIND, { raw, extra, input }), null, 2),
          )
        }
        onLoadJson={(text) => {
          const loaded = parseSaved(readDesignFile(text, KIND));
          if (!loaded) return false;
          setRaw(loaded.raw);
          setExtra(loaded.extra);
          setCalculation(loaded.calculation);
          setAlert(null);
          return true;
        }}
      />
    </section>
  );
}

function formatPlain(value: number, lang: Language): string {
  return formatNumber(value, lang, { maximumFractionDigits: 6 });
}
