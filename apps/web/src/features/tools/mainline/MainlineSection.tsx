import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { useTranslation } from 'react-i18next';
import {
  MAINLINE_NOMINAL_DIAMETERS,
  MAINLINE_PIPE_TYPES,
  availableNominalDiameters,
  resolveMainlinePipeType,
} from '@diagrodl/hydraulics';
import { formatNumber } from '@/lib/format.ts';
import {
  NumberField,
  SectionActions,
  SectionCard,
  SelectField,
  SectionStatus,
  type SectionProps,
} from '../shared/fields.tsx';
import { errorCount, messageText } from '../shared/fieldCheck.ts';
import { MAINLINE_SPECS, type Field, type Section } from './state.ts';

/** The number inputs and their column widths on a phone. */
const INPUTS = [
  ['flow', 6],
  ['length', 6],
  ['slope', 12],
] as const;

/** The calculated figures shown read-only: field and unit. */
const OUTPUTS = [
  ['velocity', 'm/s'],
  ['hf', 'm'],
] as const;

/** One section of the main line: its inputs, velocity, Hf, status and buttons. */
export function MainlineSection({
  section,
  number,
  lang,
  onRaw,
  onCalculate,
  onClear,
  onDelete,
}: { section: Section } & SectionProps<Field>) {
  const { t } = useTranslation();
  const alertFor = (field: Field) => messageText(section.errors[field], t);
  const { result, raw } = section;
  const type = resolveMainlinePipeType(raw.pipeType);
  const available: number[] = type ? availableNominalDiameters(type) : [];
  const f3 = (v: number | null | undefined) =>
    v === null || v === undefined
      ? ''
      : formatNumber(v, lang, { minimumFractionDigits: 3, maximumFractionDigits: 3 });

  const select = (
    field: 'pipeType' | 'nominalDiameter',
    label: string,
    options: [string, string][],
  ) => (
    <SelectField
      label={label}
      value={raw[field]}
      options={options}
      onChange={(v) => onRaw(field, v)}
      choose={t('irrigation.choose')}
      alert={alertFor(field)}
      testId={`mainline-${field}`}
    />
  );

  return (
    <SectionCard
      tool="mainline"
      number={number}
      title={t('irrigation.mainline.sectionN', { n: number })}
      onCalculate={onCalculate}
      attempt={section.attempt}
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
        {INPUTS.map(([field, xs]) => (
          <Col key={field} xs={xs} sm={4} lg={2}>
            <NumberField
              label={t(`irrigation.mainline.fields.${field}`)}
              unit={MAINLINE_SPECS[field].unit || undefined}
              value={raw[field]}
              onChange={(v) => onRaw(field, v)}
              alert={alertFor(field)}
              testId={`mainline-${field}`}
            />
          </Col>
        ))}
        {OUTPUTS.map(([field, unit]) => (
          <Col key={field} xs={6} sm={6} lg={3}>
            <NumberField
              label={t(`irrigation.mainline.fields.${field}`)}
              unit={unit}
              value={f3(result?.[field])}
              readOnly
              testId={`mainline-${field}`}
            />
          </Col>
        ))}
      </Row>
      <SectionStatus
        tool="mainline"
        status={result && { text: result.message, ok: result.status === 'ok' }}
      />
      <SectionActions
        tool="mainline"
        onClear={onClear}
        onDelete={onDelete}
        errors={errorCount(section.errors)}
      />
    </SectionCard>
  );
}
