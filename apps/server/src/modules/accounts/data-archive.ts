/**
 * The "Mis datos" archive: one zip with everything the platform holds about a user (profile,
 * diagnoses as JSON and CSV, photos, heatmaps, thumbnails, reports and a README in Spanish and
 * English). Streamed: the rows are written as small files, and every photo is read from disk
 * into the zip as the reply is sent, never held whole in memory.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import {
  type CsvCell,
  type MediaKind,
  TOOL,
  className,
  isClassId,
  toCsvFile,
} from '@diagrodl/contracts';
import type { UserFolder } from '../users/user-data.ts';
import type { UserRows } from './account-data.repository.ts';

/** The archive's folder for each kind of file. */
export const ARCHIVE_FOLDERS: Record<MediaKind, string> = {
  post_images: 'photos',
  heatmaps: 'heatmaps',
  thumbs: 'thumbnails',
  reports: 'reports',
};

export const ARCHIVE_FILES = {
  readme: 'LEEME-README.txt',
  profile: 'profile.json',
  diagnosesJson: 'diagnoses.json',
  diagnosesCsv: 'diagnoses.csv',
  photosJson: 'photos.json',
  photosCsv: 'photos.csv',
} as const;

type Cell = CsvCell | boolean;

/** A CSV file with a UTF-8 byte-order mark, so that spreadsheets read its accents. */
const csvFile = (header: readonly string[], rows: readonly (readonly Cell[])[]): string =>
  toCsvFile([header, ...rows]);

interface TopClass {
  label: string;
  probability: number;
}

function parseTop3(raw: string | null): TopClass[] {
  if (!raw) return [];
  try {
    const v = JSON.parse(raw) as unknown;
    return Array.isArray(v) ? (v as TopClass[]) : [];
  } catch {
    return [];
  }
}

const disease = (label: string | null, lang: 'es' | 'en') =>
  label && isClassId(label) ? className(label, lang) : null;

const inFolder = (kind: MediaKind, file: string | null) =>
  file ? `${ARCHIVE_FOLDERS[kind]}/${file}` : null;

/** The result of one identified photo, as both tables of diagnoses write it. */
function result(r: {
  label: string | null;
  probability: number | null;
  accepted: number | null;
  reason: string | null;
  leaf_probability: number | null;
  lab_like: number | null;
  top3: string | null;
  model: string | null;
}) {
  return {
    label: r.label,
    disease_es: disease(r.label, 'es'),
    disease_en: disease(r.label, 'en'),
    probability: r.probability,
    accepted: r.accepted === null ? null : r.accepted === 1,
    reason: r.reason,
    leaf_probability: r.leaf_probability,
    lab_like: r.lab_like,
    top3: parseTop3(r.top3),
    model: r.model,
  };
}

type Result = ReturnType<typeof result>;
const RESULT_COLUMNS = [
  'label',
  'disease_es',
  'disease_en',
  'probability',
  'accepted',
  'reason',
  'leaf_probability',
  'lab_like',
  'top1_label',
  'top1_probability',
  'top2_label',
  'top2_probability',
  'top3_label',
  'top3_probability',
  'model',
] as const;
const resultCells = (r: Result): Cell[] => [
  r.label,
  r.disease_es,
  r.disease_en,
  r.probability,
  r.accepted,
  r.reason,
  r.leaf_probability,
  r.lab_like,
  ...[0, 1, 2].flatMap((i) => [r.top3[i]?.label, r.top3[i]?.probability]),
  r.model,
];

/** Every finished diagnosis (the history, "Mis diagnósticos"). */
export function diagnoses(rows: UserRows) {
  const images = new Map(rows.images.map((i) => [i.id, i]));
  return rows.history.map((h) => {
    const image = images.get(h.image_id);
    return {
      id: h.id,
      name_img: h.name_img,
      diagnosed_at: h.created_at,
      ...result(h),
      made_on_device: h.client_id !== null,
      thumbnail: inFolder('thumbs', h.thumb_file),
      photo: image ? inFolder('post_images', image.file) : null,
      heatmap: image ? inFolder('heatmaps', image.heatmap_file) : null,
    };
  });
}

/** Every photo still stored (the working set: pending, being identified or identified). */
export function photos(rows: UserRows) {
  return rows.images.map((i) => ({
    id: i.id,
    name_img: i.name_img,
    uploaded_at: i.created_at,
    status: i.status,
    mime: i.mime,
    size_bytes: i.size_bytes,
    width: i.width,
    height: i.height,
    photo: inFolder('post_images', i.file),
    predicted_at: i.predicted_at,
    ...result(i),
    heatmap: inFolder('heatmaps', i.heatmap_file),
  }));
}

/** The account and what goes with it: no password hash, no session or link token. */
export function profile(rows: UserRows, exportedAt: string) {
  const u = rows.user;
  return {
    exported_at: exportedAt,
    account: {
      id: u.id,
      user_name: u.user_name,
      first_name: u.first_name,
      last_name: u.last_name,
      email: u.email,
      country: u.country,
      code_country: u.code_country,
      city: u.city,
      phone_number: u.phone_number,
      organisation_type: u.organisation_type,
      organisation_name: u.organisation_name,
      purpose_use: u.purpose_use,
      accept_terms: u.accept_terms === 1,
      give_permission: u.give_permission === 1,
      accept_data_licence: u.accept_data_licence === 1,
      subscribe_update: u.subscribe_update === 1,
      language: u.language,
      created_at: u.created_at,
      password_changed_at: u.password_changed_at,
    },
    diagnosis_settings: rows.settings
      ? {
          cultivo: rows.settings.cultivo,
          nivel: rows.settings.nivel,
          tipo_modelo: rows.settings.tipo_modelo,
          modelo_version: rows.settings.modelo_version,
          model: rows.settings.model_id,
          updated_at: rows.settings.updated_at,
        }
      : null,
    identification_runs: rows.runs.map((r) => ({
      id: r.id,
      model: r.model_id,
      state: r.state,
      total: r.total,
      done: r.done,
      detail: r.detail,
      created_at: r.created_at,
      updated_at: r.updated_at,
    })),
    sessions: rows.sessions.map((s) => ({
      created_at: s.created_at,
      expires_at: s.expires_at,
      remember_me: s.persistent === 1,
    })),
    password_reset_requests: rows.passwordResets.map((r) => ({
      created_at: r.created_at,
      expires_at: r.expires_at,
      used_at: r.used_at,
    })),
    contact_messages: rows.contactMessages.map((m) => ({
      id: m.id,
      name: m.name,
      email: m.email,
      subject: m.subject,
      message: m.message,
      created_at: m.created_at,
    })),
  };
}

/** What each file is, in one language: [names, description]. */
type Entries = [string[], string][];

function described(entries: Entries): string[] {
  const width = Math.max(...entries.flatMap(([names]) => names.map((n) => n.length))) + 3;
  return entries.flatMap(([names, text]) => [
    ...names.map((n) => `  ${n}`),
    ...wrap(text, 96 - width).map((l) => `${' '.repeat(width)}${l}`),
  ]);
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

function readme(userName: string, exportedAt: string): string {
  const f = ARCHIVE_FILES;
  const d = ARCHIVE_FOLDERS;
  const es: Entries = [
    [
      [f.profile],
      'Tu perfil (los datos del registro, sin la contraseña), la configuración del diagnóstico, tus identificaciones, tus sesiones abiertas, tus pedidos de restablecer la contraseña y los mensajes que enviaste por el formulario de contacto.',
    ],
    [
      [f.diagnosesJson, f.diagnosesCsv],
      'Cada diagnóstico terminado (tu historial): nombre de la foto, fecha, etiqueta y enfermedad, probabilidad, si se aceptó y por qué no (reason), las tres clases más probables, el modelo y dónde están en este archivo su miniatura, su foto y su mapa de calor (si aún se guardan). Las mismas filas en JSON y en CSV (UTF-8, separado por comas).',
    ],
    [
      [f.photosJson, f.photosCsv],
      'Cada foto que tienes subida ahora (pendiente, en identificación o identificada), con su resultado cuando lo tiene.',
    ],
    [[`${d.post_images}/`], 'Tus fotos, tal como las subiste.'],
    [[`${d.heatmaps}/`], 'Los mapas de calor: dónde miró el modelo en cada foto.'],
    [[`${d.thumbs}/`], 'Las miniaturas de tu historial.'],
    [[`${d.reports}/`], 'Tus reportes en PDF.'],
  ];
  const en: Entries = [
    [
      [f.profile],
      'Your profile (what you registered with, not the password), the diagnosis settings, your identification runs, your open sessions, your password-reset requests and the messages you sent through the contact form.',
    ],
    [
      [f.diagnosesJson, f.diagnosesCsv],
      'Every finished diagnosis (your history): photo name, date, label and disease, probability, whether it was accepted and why not (reason), the three most likely classes, the model, and where its thumbnail, photo and heatmap lie in this archive (when still kept). The same rows as JSON and as CSV (UTF-8, comma separated).',
    ],
    [
      [f.photosJson, f.photosCsv],
      'Every photo you have uploaded now (pending, being identified or identified), with its result when it has one.',
    ],
    [[`${d.post_images}/`], 'Your photos, as you uploaded them.'],
    [[`${d.heatmaps}/`], 'The heatmaps: where the model looked in each photo.'],
    [[`${d.thumbs}/`], 'The thumbnails of your history.'],
    [[`${d.reports}/`], 'Your PDF reports.'],
  ];
  return [
    `${TOOL}: MIS DATOS / MY DATA`,
    `${userName}, ${exportedAt}`,
    '',
    '== Español ==',
    '',
    `Este archivo contiene todo lo que ${TOOL} guarda sobre tu cuenta:`,
    '',
    ...described(es),
    '',
    ...wrap(
      'Las probabilidades van de 0 a 1 y las fechas son UTC (ISO 8601). reason: not_leaf (no parece una hoja de tomate), low_confidence (no reconocido con confianza) o vacío (un diagnóstico).',
      96,
    ),
    '',
    '== English ==',
    '',
    `This archive holds everything ${TOOL} keeps about your account:`,
    '',
    ...described(en),
    '',
    ...wrap(
      'Probabilities go from 0 to 1 and dates are UTC (ISO 8601). reason: not_leaf (does not look like a tomato leaf), low_confidence (not recognised with confidence) or empty (a diagnosis).',
      96,
    ),
    '',
  ].join('\r\n');
}

/**
 * The archive as a stream: the rows first, then every file of the user's folders (dot-named
 * files, which are being written, are left out), each read from disk as the zip is sent. A file
 * that cannot be read midway ends the stream with an error (the download fails, it is never
 * silently short). A download that ends early (the client went away) closes the file being
 * read and opens no other.
 */
export async function dataArchive(
  rows: UserRows,
  folders: readonly UserFolder[],
  now = new Date(),
): Promise<Readable> {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  zip.on('error', (err: Error) => output.destroy(err));
  /** The files being read into the zip: closed with the output. */
  const reading = new Set<fs.ReadStream>();
  output.on('close', () => {
    for (const stream of reading) stream.destroy();
  });
  const exportedAt = now.toISOString();
  const text = (name: string, content: string) =>
    zip.addBuffer(Buffer.from(content, 'utf8'), name, { mtime: now });
  const json = (name: string, value: unknown) => text(name, `${JSON.stringify(value, null, 2)}\n`);

  const diagnosisRows = diagnoses(rows);
  const photoRows = photos(rows);
  text(ARCHIVE_FILES.readme, readme(rows.user.user_name, exportedAt));
  json(ARCHIVE_FILES.profile, profile(rows, exportedAt));
  json(ARCHIVE_FILES.diagnosesJson, diagnosisRows);
  text(
    ARCHIVE_FILES.diagnosesCsv,
    csvFile(
      [
        'id',
        'name_img',
        'diagnosed_at',
        ...RESULT_COLUMNS,
        'made_on_device',
        'thumbnail',
        'photo',
        'heatmap',
      ],
      diagnosisRows.map((r) => [
        r.id,
        r.name_img,
        r.diagnosed_at,
        ...resultCells(r),
        r.made_on_device,
        r.thumbnail,
        r.photo,
        r.heatmap,
      ]),
    ),
  );
  json(ARCHIVE_FILES.photosJson, photoRows);
  text(
    ARCHIVE_FILES.photosCsv,
    csvFile(
      [
        'id',
        'name_img',
        'uploaded_at',
        'status',
        'mime',
        'size_bytes',
        'width',
        'height',
        'photo',
        'predicted_at',
        ...RESULT_COLUMNS,
        'heatmap',
      ],
      photoRows.map((r) => [
        r.id,
        r.name_img,
        r.uploaded_at,
        r.status,
        r.mime,
        r.size_bytes,
        r.width,
        r.height,
        r.photo,
        r.predicted_at,
        ...resultCells(r),
        r.heatmap,
      ]),
    ),
  );

  for (const folder of folders) {
    const entries = await fs.promises
      .readdir(folder.dir, { withFileTypes: true })
      .catch(() => [] as fs.Dirent[]);
    const names = entries
      .filter((e) => e.isFile() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
    for (const name of names) {
      const file = path.join(folder.dir, name);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (!stat?.isFile()) continue; // removed since the folder was read
      // photos, heatmaps and PDFs are compressed already: stored as they are
      const options = { compress: false, mtime: stat.mtime, size: stat.size };
      zip.addReadStreamLazy(`${ARCHIVE_FOLDERS[folder.kind]}/${name}`, options, (opened) => {
        if (output.destroyed) return opened(new Error('the download ended'), null as never);
        const stream = fs.createReadStream(file);
        reading.add(stream);
        stream.on('close', () => reading.delete(stream));
        stream.on('error', (err) => zip.emit('error', err));
        opened(null, stream);
      });
    }
  }
  zip.end();
  return output;
}
