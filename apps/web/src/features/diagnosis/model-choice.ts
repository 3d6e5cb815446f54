import { type ConfigBody, type LoadedModel, inSelectorOrder } from '@diagrodl/contracts';

/**
 * The model a person gets without choosing one: the one the server marks as its default
 * (`isDefault`: the ensemble when its card says so, else the MobileNet; README, Models), else the
 * MobileNet when it is loaded, else the first loaded model in the configuration page's order;
 * undefined when none is loaded. The configuration page preselects it; 'Diagnosticar' configures it
 * for a person who never visited that page.
 */
export function defaultModelVersion(
  models: readonly Pick<LoadedModel, 'id' | 'isDefault'>[],
): string | undefined {
  const loaded = inSelectorOrder(models.map((m) => m.id));
  const marked = models.find((m) => m.isDefault);
  return (
    loaded.find((v) => v.modelId === marked?.id) ??
    loaded.find((v) => v.modelId === 'mobilenet') ??
    loaded[0]
  )?.value;
}

/**
 * The model the configuration page shows chosen: the person's stored choice (GET post_custom)
 * while that model is loaded, so coming back to /Custom does not undo it; else the default.
 */
export function preselectedVersion(
  models: readonly Pick<LoadedModel, 'id' | 'isDefault'>[],
  stored: string | undefined,
): string | undefined {
  const loaded = inSelectorOrder(models.map((m) => m.id));
  return loaded.find((v) => v.value === stored)?.value ?? defaultModelVersion(models);
}

/** The configuration the server takes for a model version (crop, level and type have one choice). */
export function configFor(modeloVersion: string): ConfigBody {
  return { cultivo: 'tomate', nivel: 'hoja', tipo_modelo: 'DL', modelo_version: modeloVersion };
}
