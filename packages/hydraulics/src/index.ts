/**
 * @diagrodl/hydraulics: unit converter, lateral-line calculator, secondary-line and main-line
 * designers, EPANET export. Pure TypeScript, no framework, no Node APIs (the CLI lives in cli.ts).
 */
export { HydraulicsInputError, type ValidationResult } from './errors';
export {
  christiansenF,
  hazenWilliamsLoss,
  lateralUnitLoss,
  pipeVelocity,
  HW_COEFFICIENT,
  HW_DIAMETER_EXPONENT,
  HW_FLOW_EXPONENT,
  LATERAL_HW_COEFFICIENT,
  LATERAL_HW_DIAMETER_EXPONENT,
} from './formulas';
export {
  formatMessageNumber,
  isBlank,
  millimetresToMetres,
  parseDecimal,
  parseInteger,
  parseThreeDecimals,
} from './numbers';
export {
  MAINLINE_MESSAGES,
  SECONDARY_MESSAGES,
  STATUS_HERE,
  type NumberFormatter,
} from './messages';
export {
  convert,
  equivalents,
  isMeasure,
  isUnitOf,
  CONVERTER_DEFAULTS,
  MEASURES,
  UNIT_CATALOGUE,
  type AreaUnit,
  type FlowUnit,
  type LengthUnit,
  type LocalisedLabel,
  type MassUnit,
  type Measure,
  type MeasureInfo,
  type PressureUnit,
  type UnitId,
  type UnitIdByMeasure,
  type UnitInfo,
} from './units';
export {
  designLateral,
  lateralRow,
  LATERAL_DEFAULTS,
  LATERAL_MAX_EMITTERS,
  type LateralInput,
  type LateralResult,
  type LateralRow,
} from './lateral';
export {
  SECONDARY_CATALOGUES,
  SECONDARY_PIPE_TYPES,
  type CatalogueDiameter,
  type SecondaryCatalogue,
  type SecondaryPipeType,
} from './data/secondary-catalogues';
export {
  addSectionAlert,
  adjustedPipeCount,
  countOutlets,
  designSecondary,
  designSecondarySection,
  sectionCountAlert,
  summarizePipes,
  validateSecondarySection,
  PIPE_ALLOWANCE,
  PIPE_LENGTH,
  SECONDARY_FIELD_LABELS,
  SECONDARY_MAX_DIAMETERS,
  SECONDARY_MAX_OUTLETS,
  SECONDARY_MAX_SECTIONS,
  type DesignOptions,
  type SecondaryDesign,
  type SecondarySectionInput,
  type SecondarySectionRaw,
  type SecondarySectionResult,
  type SecondaryStatus,
  type SecondaryStretch,
  type SecondarySummaryRow,
} from './secondary';
export {
  optimiseStretches,
  type StretchPlan,
  type StretchProblem,
  type StretchSolution,
} from './secondary-optimizer';
export {
  MAINLINE_CATALOGUE,
  MAINLINE_NOMINAL_DIAMETERS,
  MAINLINE_PIPE_TYPES,
  type MainlineCatalogueRow,
  type MainlineNominalDiameter,
  type MainlinePipeType,
  type MainlinePipeTypeInfo,
} from './data/mainline-catalogue';
export {
  availableNominalDiameters,
  designMainline,
  designMainlineSection,
  mainlineInnerDiameterMm,
  mainlinePipeTypeInfo,
  mainlineTotals,
  resolveMainlinePipeType,
  validateInitialPressure,
  validateMainlineSection,
  MAINLINE_MAX_VELOCITY,
  MAINLINE_MIN_INITIAL_PRESSURE,
  MAINLINE_MIN_VELOCITY,
  type MainlineDesign,
  type MainlineInput,
  type MainlineSectionInput,
  type MainlineSectionRaw,
  type MainlineSectionResult,
  type MainlineTotals,
} from './mainline';
export { toEpanetInp } from './epanet';
