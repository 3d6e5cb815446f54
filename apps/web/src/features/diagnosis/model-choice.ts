import { type ConfigBody, type LoadedModel, MODEL_VERSIONS } from '@diagrodl/contracts';

/**
 * The model a person gets without choosing one: the MobileNet when it is loaded (the default:
 * README, Models), else the first loaded model in the configuration page's order; undefined when
 * none is loaded. The configuration page preselects it; 'Diagnosticar' configures it for a person
 * who never visited that page.
 */
export function defaultModelVersion(
  models: readonly Pick<LoadedModel, 'id'>[],
): string | undefined {
  const loaded = MODEL_VERSIONS.filter((v) => models.some((m) => m.id === v.modelId));
  return (loaded.find((v) => v.modelId === 'mobilenet') ?? loaded[0])?.value;
}

/** The configuration the server takes for a model version (crop, level and type have one choice). */
export function configFor(modeloVersion: string): ConfigBody {
  return { cultivo: 'tomate', nivel: 'hoja', tipo_modelo: 'DL', modelo_version: modeloVersion };
}
