/**
 * The diagnosis configuration of a user: crop, level, model type and model version, checked
 * against what this server offers and has loaded, kept in `diagnosis_settings`.
 */
import {
  CROPS,
  DIAGNOSIS_MESSAGES as M,
  LEVELS,
  MODEL_TYPES,
  MODEL_VERSIONS,
  type ConfigBody,
  type ConfigReply,
  type ConfigStateReply,
  type ModelId,
} from '@diagrodl/contracts';
import type { Inference } from '../../inference/classifier.ts';
import { HttpError } from '../../lib/errors.ts';
import { nowIso } from '../../lib/tokens.ts';
import type { DiagnosisRepository } from './diagnosis.repository.ts';

export class ConfigService {
  constructor(
    private readonly repo: DiagnosisRepository,
    private readonly models: Pick<Inference, 'has'>,
  ) {}

  /** `body`: the four fields as text ('' when missing), from the endpoint's request schema. */
  async configure(userId: number, body: ConfigBody) {
    const cfg: ConfigBody = {
      cultivo: body.cultivo.trim(),
      nivel: body.nivel.trim(),
      tipo_modelo: body.tipo_modelo.trim(),
      modelo_version: body.modelo_version.trim(),
    };
    if (cfg.cultivo !== CROPS[0]) throw new HttpError(400, M.cropNotAvailable);
    if (cfg.nivel !== LEVELS[0]) throw new HttpError(400, M.levelNotAvailable);
    if (cfg.tipo_modelo !== MODEL_TYPES[0]) throw new HttpError(400, M.typeNotAvailable);
    const version = MODEL_VERSIONS.find((v) => v.value === cfg.modelo_version);
    if (!version) throw new HttpError(400, M.modelUnknown);
    if (!this.models.has(version.modelId)) {
      throw new HttpError(400, M.modelNotLoaded(version.label));
    }
    await this.repo.saveSettings({
      user_id: userId,
      ...cfg,
      model_id: version.modelId,
      updated_at: nowIso(),
    });
    return {
      status: 'OK',
      detail: M.configOk,
      config: { ...cfg, modelId: version.modelId },
    } satisfies ConfigReply;
  }

  async getConfig(userId: number): Promise<ConfigStateReply> {
    const s = await this.repo.getSettings(userId);
    if (!s) return { config: null };
    return {
      config: {
        cultivo: s.cultivo,
        nivel: s.nivel,
        tipo_modelo: s.tipo_modelo,
        modelo_version: s.modelo_version,
        modelId: s.model_id as ModelId,
      },
    };
  }
}
