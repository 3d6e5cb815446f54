import { useId, useState } from 'react';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_FRICTION_FORMULA,
  DESIGN_MESSAGES,
  FRICTION_FORMULAS,
  FRICTION_FORMULA_LABELS,
  SECONDARY_PIPE_TYPES,
  type SecondarySectionResult,
} from '@diagrodl/hydraulics';
import { InlineAlert } from '../shared/InlineAlert.tsx';
import { formatNumber } from '@/lib/format.ts';
import type { Language } from '@/lib/i18n.ts';
import {
  NumberField,
  SectionActions,
  SectionCard,
  SectionStatus,
  SelectField,
  type SectionProps,
} from '../shared/fields.tsx';
import { errorCount, messageText } from '../shared/fieldCheck.ts';
import { NumCells, ToolTable } from '../shared/ToolTable.tsx';
import { stretchColumns } from './report.ts';
import { SECONDARY_SPECS, type Field, type Unit } from './state.ts';

/** The specification's number fields, with its short names as tags next to their words. */
const NUMBER_FIELDS = [
  { key: 'nd', tag: 'ND' },
  { key: 'length' },
  { key: 'qs', tag: 'qs' },
  { key: 's0', tag: 'S0' },
  { key: 'se', tag: 'Se' },
  { key: 'hfp', tag: 'HFp' },
] as const satisfies readonly { key: Field; tag?: string }[];

/** One section of the secondary line: its inputs, status, stretches and pressures. */
export function SecondarySection({
  unit,
  number: section,
  lang,
  onRaw,
  onCalculate,
  onClear,
  onDelete,
}: { unit: Unit } & SectionProps<Field>) {
  const { t } = useTranslation();
  const f = (v: number, d: number) =>
    formatNumber(v, lang, { minimumFractionDigits: d, maximumFractionDigits: d });
  const alertFor = (field: Field) => messageText(unit.errors[field], t);
  const { result } = unit;

  return (
    <SectionCard
      tool="secondary"
      number={section}
      title={t('irrigation.secondary.sectionN', { n: section })}
      onCalculate={onCalculate}
      attempt={unit.attempt}
      after={
        <div className="mt-2">
          <SectionStatus
            tool="secondary"
            status={result && { text: result.statusText, ok: result.status === 'ok' }}
          />
          {result?.alert && (
            <InlineAlert
              message={result.alert}
              variant={result.status === 'ok' ? 'warning' : 'danger'}
              testId="secondary-result-alert"
            />
          )}
          {result && result.stretches.length > 0 && (
            <ToolTable
              className="mt-2"
              label={t('irrigation.secondary.resultsCaption', { n: section })}
              caption={t('irrigation.secondary.resultsCaption', { n: section })}
              testId="secondary-results"
              columns={stretchColumns(t, ['length', 'outlets', 'hf'])}
              foot={
                <tr>
                  <th scope="row">{t('irrigation.total')}</th>
                  <td />
                  <NumCells
                    values={[
                      f(
                        result.stretches.reduce((a, s) => a + s.length, 0),
                        2,
                      ),
                      f(result.outlets, 0),
                      f(result.hf, 4),
                    ]}
                  />
                </tr>
              }
            >
              {result.stretches.map((s, i) => (
                <tr key={i}>
                  <td>{s.pipeType}</td>
                  <NumCells
                    values={[f(s.nominalDiameter, 0), f(s.length, 2), f(s.outlets, 0), f(s.hf, 4)]}
                  />
                </tr>
              ))}
            </ToolTable>
          )}
          {result && <SectionPressures result={result} section={section} lang={lang} />}
        </div>
      }
    >
      <Row className="g-2">
        <Col xs={12} sm={6} lg={3}>
          <SelectField
            label={t('irrigation.secondary.fields.pipeType')}
            value={unit.raw.pipeType}
            options={SECONDARY_PIPE_TYPES.map((p) => [p, p] as const)}
            onChange={(v) => onRaw('pipeType', v)}
            choose={t('irrigation.choose')}
            alert={alertFor('pipeType')}
            testId="secondary-pipeType"
          />
        </Col>
        {NUMBER_FIELDS.map((field) => (
          <Col key={field.key} xs={6} sm={6} lg={3} xl>
            <NumberField
              label={t(`irrigation.secondary.fields.${field.key}`)}
              tag={'tag' in field ? field.tag : undefined}
              unit={SECONDARY_SPECS[field.key].unit || undefined}
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
          <SelectField
            label={t('irrigation.formula')}
            value={unit.raw.formula ?? DEFAULT_FRICTION_FORMULA}
            options={FRICTION_FORMULAS.map((f) => [f, FRICTION_FORMULA_LABELS[f][lang]] as const)}
            onChange={(v) => onRaw('formula', v)}
            alert={alertFor('formula')}
            testId="secondary-formula"
          />
        </Col>
        <Col xs={12} sm={6} lg={4}>
          <NumberField
            label={t('irrigation.secondary.fields.pressure')}
            hint={t('irrigation.secondary.pressureHint')}
            unit={SECONDARY_SPECS.pressure.unit}
            value={unit.raw.pressure ?? ''}
            onChange={(v) => onRaw('pressure', v)}
            alert={alertFor('pressure')}
            testId="secondary-pressure"
          />
        </Col>
      </Row>
      <SectionActions
        tool="secondary"
        onClear={onClear}
        onDelete={onDelete}
        errors={errorCount(unit.errors)}
        className="mt-3"
      />
    </SectionCard>
  );
}

/** Beyond the specification: a section's formula, inlet pressure and the pressure at every outlet. */
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
            <ToolTable
              scroll
              id={`${id}-outlets`}
              className="mt-2"
              label={t('irrigation.secondary.outletsCaption', { n: section })}
              testId="secondary-outlets"
              columns={(['outlet', 'pressure'] as const).map((c) => ({
                label: t(`irrigation.secondary.cols.${c}`),
                num: true,
              }))}
            >
              {pressures.map((p, i) => (
                <tr key={i}>
                  <NumCells values={[f(i + 1, 0), f(p, 3)]} />
                </tr>
              ))}
            </ToolTable>
          )}
        </>
      )}
    </div>
  );
}
