/**
 * Every HTTP endpoint of the product, declared once: method, path, who may call it, the request
 * schemas (zod: body, path params, query) and the reply type. The server registers its routes
 * from this table and validates each request against it before the handler runs
 * (apps/server/src/lib/contract-routes.ts); `openApiDocument()` describes it for
 * GET /api/openapi.json; the web app's one fetcher (apps/web/src/lib/api-client.ts) takes an
 * entry and returns its typed reply.
 *
 * A request the schemas refuse is answered exactly as the handlers answered it before there
 * was a table: `invalid` gives the status and the Spanish `detail` (a schema's own message,
 * such as the contact form's per-field ones, wins), and `fieldErrors` adds `errors: {field:
 * message}`. Fields that the services check one by one, in an order that matters (a missing
 * current password before a wrong one), are declared as text that is '' when absent or not a
 * string, as the services always read them; those checks stay in the services.
 */
import { z } from 'zod';
import type {
  ChangePasswordBody,
  DeleteAccountBody,
  ResetConfirmBody,
  ResetRequestBody,
} from './accounts.ts';
import type { ApiReply, HealthReply, SessionReply } from './api.ts';
import {
  CONTACT_FIELDS,
  CONTACT_MESSAGES,
  CONTACT_REPLY,
  type ContactBody,
  checkContact,
} from './contact.ts';
import type { DeviceSyncReply } from './device.ts';
import {
  type ConfigBody,
  type ConfigReply,
  type ConfigStateReply,
  DIAGNOSIS_MESSAGES,
  type DeleteReply,
  type DiagnosisRow,
  type HistoryItem,
  type LoadedModelDetails,
  type PendingImage,
  type PredictReply,
  type ProgressReply,
  type ReportReply,
  type UploadReply,
  UPLOAD_LIMITS,
} from './diagnosis.ts';
import { DEVICE_MESSAGES } from './device.ts';
import { REGISTRATION_MESSAGES } from './registration.ts';
import { SERVER_MESSAGES } from './server-messages.ts';

/** The reply type of an endpoint, carried by the type only (nothing is stored at run time). */
export interface Reply<T> {
  readonly __reply?: T;
}
const reply = <T>(): Reply<T> => ({});

/** A file of a multipart body, as the server read it. */
export interface UploadedFile {
  bytes: Uint8Array;
  filename: string | undefined;
}

export interface MultipartRule {
  /** The body field the file is put under. */
  file: string;
  /** True: the first file is taken whatever its field's name (the specification's upload). */
  fileFromAnyField?: boolean;
  /** Detail (400) when the body is not multipart; unset: JSON and form bodies are read too. */
  required?: string;
  /** Detail (400) when the multipart body is broken (cut off, no boundary) or over its part limits. */
  broken: string;
  /** Detail (400) when more than one file is sent; unset: `broken`. */
  tooManyFiles?: string;
  /** Detail (413) when the file is over the upload limit. */
  tooLarge: string;
}

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface Endpoint {
  method: HttpMethod;
  /** Fastify style: `:name` for a path parameter. */
  path: string;
  summary: string;
  /** 'user': a visitor gets 401 before anything else is looked at. */
  access: 'public' | 'user';
  body?: z.ZodType;
  params?: z.ZodType;
  query?: z.ZodType;
  /** The body is multipart/form-data (a file and text fields). */
  multipart?: MultipartRule;
  /** The answer to a request the schemas refuse. */
  invalid?: { status: number; detail: string };
  /** Add `errors: {field: message}` (every refused field) to that answer. */
  fieldErrors?: boolean;
  /** Not JSON: a file (the reply type is then what the web app never reads). */
  produces?: string;
  reply: Reply<unknown>;
}

/** A text field read as the services read it: '' when missing or not a string. */
const text = z.string().catch('');
const optionalText = z.string().optional().catch(undefined);
/** An object of such fields; a body that is not an object reads as all of them empty. */
function textFields<const K extends string>(names: readonly K[]) {
  const shape = Object.fromEntries(names.map((n) => [n, text])) as Record<K, typeof text>;
  const object = z.object(shape);
  return object.catch(Object.fromEntries(names.map((n) => [n, ''])) as z.output<typeof object>);
}
/**
 * A path id: decimal digits naming a positive integer the databases' integer keys can hold
 * (PostgreSQL `serial` is 32-bit); any other id names nothing, so the route answers "not found".
 */
export const MAX_ROW_ID = 2_147_483_647;
const positiveId = z
  .string()
  .regex(/^\d{1,10}$/)
  .transform(Number)
  .pipe(z.number().int().positive().max(MAX_ROW_ID));
/**
 * posts_predict's optional `ids` (beyond the spec): the pending photos to identify, as one text
 * field of comma-separated path ids ('12,15'; at most UPLOAD_LIMITS.maxPending, repeats counted
 * once). Read as the distinct ids; anything else is refused with DIAGNOSIS_MESSAGES.badIds.
 * Absent: every pending photo, as the specification's call does.
 */
const predictIds = z
  .string({ error: DIAGNOSIS_MESSAGES.badIds })
  .transform((s, ctx) => {
    const parts = s.split(',').map((p) => p.trim());
    const ids = [...new Set(parts.map(Number))];
    const ok =
      parts.length <= UPLOAD_LIMITS.maxPending &&
      parts.every((p) => /^\d{1,10}$/.test(p)) &&
      ids.every((id) => id >= 1 && id <= MAX_ROW_ID);
    if (ok) return ids;
    ctx.addIssue({ code: 'custom', message: DIAGNOSIS_MESSAGES.badIds });
    return z.NEVER;
  })
  .optional();
const uploadedFile = z.custom<UploadedFile>(
  (v) => typeof v === 'object' && v !== null && (v as UploadedFile).bytes instanceof Uint8Array,
);

/** The contact form: every problem of checkContact as an issue on its field, in field order. */
const contactBody = textFields(CONTACT_FIELDS).superRefine((body, ctx) => {
  const problems = checkContact(body);
  for (const field of CONTACT_FIELDS) {
    const problem = problems[field];
    if (problem)
      ctx.addIssue({ code: 'custom', path: [field], message: CONTACT_MESSAGES[field][problem] });
  }
}) satisfies z.ZodType<ContactBody>;

/** The reply of POST /api/login/: the greeting and the session it opened (no second call). */
export interface LoginReply extends ApiReply {
  status: 'OK';
  session: SessionReply & { isAuthenticated: true };
}

export const LOGIN_INVALID = 'Escribe tu nombre de usuario y tu contraseña.';
export const LOGIN_INVALID_EN = 'Enter your user name and your password.';

/** The upload's multipart body: one photo under any field name. */
const uploadMultipart: MultipartRule = {
  file: 'image',
  fileFromAnyField: true,
  broken: DIAGNOSIS_MESSAGES.brokenUpload,
  tooManyFiles: DIAGNOSIS_MESSAGES.oneFileOnly,
  tooLarge: DIAGNOSIS_MESSAGES.tooLarge,
};
/** The other diagnosis calls accept a multipart body too (the specification's forms send one); it carries no photo. */
const formMultipart: MultipartRule = {
  file: 'image',
  broken: SERVER_MESSAGES.badRequest,
  tooLarge: SERVER_MESSAGES.payloadTooLarge,
};

export const ENDPOINTS = {
  /* ---------------- the server itself ---------------- */
  health: {
    method: 'GET',
    path: '/api/health',
    summary: 'Database, models and maintenance state (503 when the database does not answer).',
    access: 'public',
    reply: reply<HealthReply>(),
  },
  openApi: {
    method: 'GET',
    path: '/api/openapi.json',
    summary:
      'This API described as OpenAPI 3.1, generated from packages/contracts/src/endpoints.ts.',
    access: 'public',
    reply: reply<Record<string, unknown>>(),
  },

  /* ---------------- session and login ---------------- */
  session: {
    method: 'GET',
    path: '/api/session/',
    summary: 'Who is logged in (checked on every page load).',
    access: 'public',
    reply: reply<SessionReply>(),
  },
  login: {
    method: 'POST',
    path: '/api/login/',
    summary: 'Log in; answers with the session it opened. Failed tries are rate-limited.',
    access: 'public',
    body: z.object({
      username: z.string().refine((v) => v.trim() !== ''),
      password: z.string().min(1),
      remember: z.boolean().optional(),
    }),
    invalid: { status: 400, detail: LOGIN_INVALID },
    reply: reply<LoginReply>(),
  },
  logout: {
    method: 'POST',
    path: '/api/logout/',
    summary: 'End the session.',
    access: 'public',
    reply: reply<ApiReply>(),
  },
  logoutGet: {
    method: 'GET',
    path: '/api/logout/',
    summary: "End the session (the specification's sidebar logs out with GET).",
    access: 'public',
    reply: reply<ApiReply>(),
  },

  /* ---------------- accounts ---------------- */
  register: {
    method: 'POST',
    path: '/api/Create_user/',
    summary:
      "Create an account (the specification's field names); the password is mailed. Checked by parseRegistration, after the per-address limit.",
    access: 'public',
    // The rules depend on the provider (its data-licence flag) and come after the rate limit:
    // the service applies them (parseRegistration); here only "an object".
    body: z.looseObject({}),
    invalid: { status: 400, detail: REGISTRATION_MESSAGES.userNameEmpty },
    reply: reply<ApiReply>(),
  },
  changePassword: {
    method: 'POST',
    path: '/api/change_password/',
    summary: 'Change the password (current one and the new one twice); other sessions end.',
    access: 'user',
    body: textFields([
      'current_password',
      'new_password',
      'new_password_confirm',
    ] as const) satisfies z.ZodType<ChangePasswordBody>,
    reply: reply<ApiReply>(),
  },
  resetRequest: {
    method: 'POST',
    path: '/api/password_reset/',
    summary: 'Mail a one-hour, single-use reset link (same answer whether the address exists).',
    access: 'public',
    body: z
      .object({ email: text, Language: z.enum(['es', 'en']).optional().catch(undefined) })
      .catch({ email: '' }) satisfies z.ZodType<ResetRequestBody>,
    reply: reply<ApiReply>(),
  },
  resetCheck: {
    method: 'POST',
    path: '/api/password_reset/check/',
    summary: 'Whether a reset link can still be used (POST: the token stays out of logs).',
    access: 'public',
    body: textFields(['token'] as const),
    reply: reply<{ valid: boolean }>(),
  },
  resetConfirm: {
    method: 'POST',
    path: '/api/password_reset/confirm/',
    summary: 'Set a new password with a live reset token; every session of the user ends.',
    access: 'public',
    body: textFields([
      'token',
      'new_password',
      'new_password_confirm',
    ] as const) satisfies z.ZodType<ResetConfirmBody>,
    reply: reply<ApiReply>(),
  },
  myDataExport: {
    method: 'GET',
    path: '/api/my_data/export/',
    summary:
      'Download everything the platform holds about the user: one zip (profile, diagnoses as JSON and CSV, photos, heatmaps, thumbnails, reports, a README), streamed.',
    access: 'user',
    produces: 'application/zip',
    reply: reply<Blob>(),
  },
  deleteAccount: {
    method: 'POST',
    path: '/api/my_data/delete/',
    summary:
      'Delete the account with its password and a confirmation: every row and file of the user (a running identification is stopped first); contact messages lose the link; a mail confirms it.',
    access: 'user',
    body: z
      .object({ password: text, confirm: z.boolean().catch(false) })
      .catch({ password: '', confirm: false }) satisfies z.ZodType<DeleteAccountBody>,
    reply: reply<ApiReply>(),
  },
  contact: {
    method: 'POST',
    path: '/api/contact/',
    summary: 'Send a message to the provider (visitors and users); per-field errors.',
    access: 'public',
    body: contactBody,
    invalid: { status: 400, detail: CONTACT_REPLY.invalid },
    fieldErrors: true,
    reply: reply<ApiReply>(),
  },

  /* ---------------- diagnosis (specification section 7) ---------------- */
  models: {
    method: 'GET',
    path: '/diagrodl/models/',
    summary: 'The loaded models (public).',
    access: 'public',
    reply: reply<LoadedModelDetails[]>(),
  },
  configure: {
    method: 'POST',
    path: '/diagrodl/post_custom/',
    summary: 'Choose crop, level, model type and model (multipart or JSON).',
    access: 'user',
    multipart: formMultipart,
    body: textFields([
      'cultivo',
      'nivel',
      'tipo_modelo',
      'modelo_version',
    ] as const) satisfies z.ZodType<ConfigBody>,
    reply: reply<ConfigReply>(),
  },
  config: {
    method: 'GET',
    path: '/diagrodl/post_custom/',
    summary: "The user's stored configuration (null before the first one).",
    access: 'user',
    reply: reply<ConfigStateReply>(),
  },
  upload: {
    method: 'POST',
    path: '/diagrodl/posts/',
    summary: 'Upload one photo (multipart: image, name_img).',
    access: 'user',
    multipart: uploadMultipart,
    body: z.object({ image: uploadedFile, name_img: optionalText }),
    invalid: { status: 400, detail: DIAGNOSIS_MESSAGES.noFile },
    reply: reply<UploadReply>(),
  },
  rows: {
    method: 'GET',
    path: '/diagrodl/posts/',
    summary: 'The identified photos of the working set.',
    access: 'user',
    reply: reply<DiagnosisRow[]>(),
  },
  deleteRow: {
    method: 'DELETE',
    path: '/diagrodl/posts/:id/',
    summary:
      'Remove one identified photo from the working set (its history entry stays): a photo identified again replaces it.',
    access: 'user',
    params: z.object({ id: positiveId }),
    invalid: { status: 404, detail: DIAGNOSIS_MESSAGES.rowNotFound },
    reply: reply<DeleteReply>(),
  },
  pending: {
    method: 'GET',
    path: '/diagrodl/pending/',
    summary: 'Uploaded photos not yet identified.',
    access: 'user',
    reply: reply<PendingImage[]>(),
  },
  deletePending: {
    method: 'DELETE',
    path: '/diagrodl/pending/:id/',
    summary: 'Remove one uploaded, not yet identified photo.',
    access: 'user',
    params: z.object({ id: positiveId }),
    invalid: { status: 404, detail: DIAGNOSIS_MESSAGES.pendingNotFound },
    reply: reply<DeleteReply>(),
  },
  predict: {
    method: 'POST',
    path: '/diagrodl/posts_predict/',
    summary:
      "Start identifying the pending photos (answers at once; ?wait=1 answers when done). The specification's fields (image, report) carry nothing the server needs; an optional `ids` ('12,15') names the pending photos to identify, the others stay pending (without it: all of them).",
    access: 'user',
    multipart: formMultipart,
    body: z.object({ ids: predictIds }),
    query: z.object({ wait: optionalText }),
    reply: reply<PredictReply>(),
  },
  progress: {
    method: 'GET',
    path: '/diagrodl/progress/',
    summary: 'Progress of the identification (polled by the page).',
    access: 'user',
    reply: reply<ProgressReply>(),
  },
  makeReport: {
    method: 'GET',
    path: '/diagrodl/posts_makereport/',
    summary:
      "Build the PDF report of the identified photos; answers its URL. An optional `tz` (an IANA time zone such as 'America/Mexico_City', the browser's) sets the zone of the report's date; without it, or with one the server does not know, UTC.",
    access: 'user',
    query: z.object({ tz: optionalText }),
    reply: reply<ReportReply>(),
  },
  deleteRows: {
    method: 'POST',
    path: '/diagrodl/posts_delate_rows/',
    summary: 'Start anew: clear the working set (the history keeps the diagnoses).',
    access: 'user',
    multipart: formMultipart,
    reply: reply<DeleteReply>(),
  },
  history: {
    method: 'GET',
    path: '/diagrodl/history/',
    summary: 'Past diagnoses, newest first.',
    access: 'user',
    reply: reply<HistoryItem[]>(),
  },
  clearHistory: {
    method: 'DELETE',
    path: '/diagrodl/history/',
    summary: 'Forget every past diagnosis.',
    access: 'user',
    reply: reply<DeleteReply>(),
  },
  deleteHistoryItem: {
    method: 'DELETE',
    path: '/diagrodl/history/:id/',
    summary: 'Forget one past diagnosis.',
    access: 'user',
    params: z.object({ id: positiveId }),
    invalid: { status: 404, detail: DIAGNOSIS_MESSAGES.historyNotFound },
    reply: reply<DeleteReply>(),
  },
  media: {
    method: 'GET',
    path: '/media/:kind/:file',
    summary: "The owner's photos, heatmaps, thumbnails and reports (another user's file: 404).",
    access: 'user',
    params: z.object({ kind: z.string(), file: z.string() }),
    produces: 'image/jpeg, image/png, image/webp, application/pdf',
    reply: reply<Blob>(),
  },

  /* ---------------- diagnosis on the device ---------------- */
  deviceModelFile: {
    method: 'GET',
    path: '/diagrodl/device/models/:file',
    summary: 'The model the browser runs (<id>.onnx) or its card (<id>.card.json); ETag, 304.',
    access: 'public',
    params: z.object({
      file: z
        .string()
        .regex(/^([a-z0-9]+)\.(onnx|card\.json)$/)
        .transform((file) => {
          const dot = file.indexOf('.');
          return { id: file.slice(0, dot), kind: file.slice(dot + 1) as 'onnx' | 'card.json' };
        }),
    }),
    invalid: { status: 404, detail: DEVICE_MESSAGES.modelNotFound },
    produces: 'application/octet-stream, application/json',
    reply: reply<Blob>(),
  },
  deviceDiagnoses: {
    method: 'POST',
    path: '/diagrodl/device/diagnoses/',
    summary:
      'Send a diagnosis made on the device (multipart: image, client_id, name_img, result as JSON); a retry returns the first copy.',
    access: 'user',
    multipart: {
      file: 'image',
      required: DIAGNOSIS_MESSAGES.noFile,
      broken: DIAGNOSIS_MESSAGES.brokenUpload,
      tooManyFiles: DIAGNOSIS_MESSAGES.oneFileOnly,
      tooLarge: DIAGNOSIS_MESSAGES.tooLarge,
    },
    body: z.object({
      image: uploadedFile.optional(),
      client_id: optionalText,
      name_img: optionalText,
      result: optionalText,
    }),
    reply: reply<DeviceSyncReply>(),
  },
} as const satisfies Record<string, Endpoint>;

export type Endpoints = typeof ENDPOINTS;
export type EndpointName = keyof Endpoints;

/** The reply an endpoint answers with. */
export type ReplyOf<E extends Endpoint> = E['reply'] extends Reply<infer T> ? T : never;
type Schema<E, K extends 'body' | 'params' | 'query'> =
  E extends Record<K, z.ZodType> ? E[K] : undefined;
/** What the server's handler receives, after the schemas. */
export type BodyOf<E extends Endpoint> =
  Schema<E, 'body'> extends z.ZodType ? z.output<Schema<E, 'body'>> : undefined;
export type ParamsOf<E extends Endpoint> =
  Schema<E, 'params'> extends z.ZodType ? z.output<Schema<E, 'params'>> : undefined;
export type QueryOf<E extends Endpoint> =
  Schema<E, 'query'> extends z.ZodType ? z.output<Schema<E, 'query'>> : undefined;

/** What a client sends: path parameters by name, the body (FormData when multipart), the query. */
export type RequestOf<E extends Endpoint> = (E extends { params: z.ZodType }
  ? { params: Record<keyof z.input<E['params']>, string | number> }
  : { params?: undefined }) &
  (E extends { multipart: MultipartRule }
    ? { body: FormData }
    : E extends { body: z.ZodType }
      ? { body: z.input<E['body']> }
      : { body?: undefined }) &
  (E extends { query: z.ZodType }
    ? { query?: Partial<Record<keyof z.input<E['query']>, string>> }
    : { query?: undefined });

/** The URL of an endpoint with its path parameters filled in (each one URL-encoded). */
export function endpointUrl(
  endpoint: Pick<Endpoint, 'path'>,
  params: Record<string, string | number> = {},
  query: Record<string, string | undefined> = {},
): string {
  const path = endpoint.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${endpoint.path}: parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams(
    Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined),
  ).toString();
  return search ? `${path}?${search}` : path;
}

/** The diagnosis paths by name (tests and scripts): the table's strings, not a second copy. */
export const DIAGNOSIS_PATHS = {
  config: ENDPOINTS.configure.path,
  posts: ENDPOINTS.upload.path, // POST: upload one image; GET: the rows
  postItem: (id: number) => endpointUrl(ENDPOINTS.deleteRow, { id }),
  predict: ENDPOINTS.predict.path,
  progress: ENDPOINTS.progress.path,
  pending: ENDPOINTS.pending.path,
  pendingItem: (id: number) => endpointUrl(ENDPOINTS.deletePending, { id }),
  makeReport: ENDPOINTS.makeReport.path,
  deleteRows: ENDPOINTS.deleteRows.path,
  history: ENDPOINTS.history.path,
  historyItem: (id: number) => endpointUrl(ENDPOINTS.deleteHistoryItem, { id }),
  models: ENDPOINTS.models.path,
} as const;

/**
 * A compressed download's header (the server's static files and the device's model): the size of
 * the bytes it decodes to, for a progress bar (Content-Length counts the bytes on the wire).
 */
export const DECODED_LENGTH = 'X-Decoded-Content-Length';

/** The device's paths: its model file and card (GET, public), and where it sends diagnoses. */
export const DEVICE_PATHS = {
  model: (id: string) => endpointUrl(ENDPOINTS.deviceModelFile, { file: `${id}.onnx` }),
  card: (id: string) => endpointUrl(ENDPOINTS.deviceModelFile, { file: `${id}.card.json` }),
  diagnoses: ENDPOINTS.deviceDiagnoses.path,
} as const;
