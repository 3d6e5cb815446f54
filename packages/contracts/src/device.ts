/**
 * Diagnosis on the device (README.md, "Design in a page"; apps/server/src/modules/diagnosis/README.md): the browser runs the shipped MobileNet itself when it is
 * offline (or when the person chooses it), keeps the results with their photos, and sends them
 * to the history later. Each one carries an id made by the device, so a retry never creates a
 * second copy.
 */
import { z } from 'zod';
import { CLASS_IDS } from './classes.ts';
import { DIAGNOSIS_REASONS } from './diagnosis.ts';
import type { EnglishTwin } from './english-twin.ts';

/** The model the browser runs (models/<id>.onnx and its card, served as they are). */
export const DEVICE_MODEL_ID = 'mobilenet';

const probability = z.number().min(0).max(1);
const classId = z.enum(CLASS_IDS);

/** What the device decided for one photo (the same fields the server stores). */
export const deviceResultSchema = z
  .object({
    label: classId,
    probability,
    accepted: z.boolean(),
    reason: z.enum(DIAGNOSIS_REASONS).nullable(),
    leaf_probability: probability.nullable(),
    /** The model's `lab_like` output (absent from devices that ran an older model: null). */
    lab_like: probability.nullable().optional(),
    top3: z
      .array(z.object({ label: classId, probability }))
      .min(1)
      .max(3),
    model: z.literal(DEVICE_MODEL_ID),
    /** When the device diagnosed it (ISO 8601). */
    diagnosed_at: z.iso.datetime({ offset: true }),
  })
  .refine((r) => r.accepted === (r.reason === null), {
    message: 'accepted and reason disagree',
  });
export type DeviceResult = z.infer<typeof deviceResultSchema>;

/** No diagnosis is older than the product (2020), and a device clock may run ahead by a day at most. */
export const DIAGNOSIS_DATE_MIN = '2020-01-01T00:00:00Z';
export const DIAGNOSIS_DATE_AHEAD_MS = 24 * 60 * 60 * 1000;

/** Whether a device's `diagnosed_at` can be a real date of a diagnosis, seen at `now`. */
export function isPlausibleDiagnosisDate(iso: string, now: Date): boolean {
  const t = Date.parse(iso);
  return t >= Date.parse(DIAGNOSIS_DATE_MIN) && t <= now.getTime() + DIAGNOSIS_DATE_AHEAD_MS;
}

/** A client-made id: a UUID (crypto.randomUUID()). */
export const clientIdSchema = z.uuid();

/** Reply of POST /diagrodl/device/diagnoses/. */
export interface DeviceSyncReply {
  status: 'OK';
  detail: string;
  /** The history entry's id. */
  id: number;
  /** True when this client id had already been received (nothing new was stored). */
  duplicate: boolean;
}

export const DEVICE_MESSAGES = {
  stored: 'Diagnóstico recibido.',
  duplicate: 'Este diagnóstico ya se había recibido.',
  badClientId: 'Falta el identificador del diagnóstico o no es válido.',
  badResult: 'El resultado del diagnóstico no es válido.',
  badDate:
    'La fecha del diagnóstico no es válida: la fecha y la hora de este dispositivo no son correctas.',
  modelNotFound: 'Ese modelo no está disponible en este servidor.',
  modelChanged:
    'El modelo de este servidor se está actualizando: inténtalo de nuevo en unos minutos.',
} as const;

export const DEVICE_MESSAGES_EN = {
  stored: 'Diagnosis received.',
  duplicate: 'This diagnosis had already been received.',
  badClientId: 'The diagnosis identifier is missing or not valid.',
  badResult: 'The diagnosis result is not valid.',
  badDate:
    'The date of the diagnosis is not valid: the date and time of this device are not right.',
  modelNotFound: 'That model is not available on this server.',
  modelChanged: 'The model on this server is being updated: try again in a few minutes.',
} satisfies EnglishTwin<typeof DEVICE_MESSAGES>;
