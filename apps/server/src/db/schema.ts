import type { Generated } from 'kysely';

/** Timestamps are ISO-8601 UTC strings on both SQLite and PostgreSQL (portable and sortable). */
export interface UsersTable {
  id: Generated<number>;
  user_name: string;
  user_name_lower: string;
  first_name: string;
  last_name: string;
  email: string;
  email_lower: string;
  country: string;
  code_country: string;
  city: string;
  phone_number: string;
  organisation_type: number;
  organisation_name: string;
  purpose_use: number;
  accept_terms: number;
  give_permission: number;
  accept_data_licence: number;
  subscribe_update: number;
  language: string;
  password_hash: string;
  created_at: string;
  password_changed_at: string;
}

export interface SessionsTable {
  /** sha256 of the cookie token: a leaked database does not leak live sessions. */
  id: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  persistent: number;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  name: string;
  email: string;
  subject: string;
  message: string;
  user_id: number | null;
  created_at: string;
  mailed: number;
  /** When its mail was last tried (ISO); null for rows from before migration 0008. */
  mail_attempted_at: string | null;
}

/** Fixed-window counters (failed logins, mail-sending requests) keyed by bucket. */
export interface RateLimitsTable {
  bucket: string;
  hits: number;
  window_end: string;
}

/** The configuration chosen on /Custom (one row per user). */
export interface DiagnosisSettingsTable {
  user_id: number;
  cultivo: string;
  nivel: string;
  tipo_modelo: string;
  modelo_version: string;
  model_id: string;
  updated_at: string;
}

/** One identification request (the progress bar reads it). */
export interface DiagnosisRunsTable {
  id: Generated<number>;
  user_id: number;
  model_id: string;
  /** 'running' | 'done' | 'error' */
  state: string;
  total: number;
  done: number;
  detail: string | null;
  created_at: string;
  /** Heartbeat while running: the owner's lease ends ttl after it. */
  updated_at: string;
  /** Fencing token of the process that holds the run (null: rows before migration 0005). */
  owner: string | null;
  /** How often a dead owner's run was taken over (a run that keeps killing processes stops). */
  takeovers: Generated<number>;
}

/** An uploaded image and, once identified, its result row. */
export interface DiagnosisImagesTable {
  id: Generated<number>;
  user_id: number;
  name_img: string;
  /** Stored file name under MEDIA_DIR/post_images/<user_id>/ */
  file: string;
  mime: string;
  size_bytes: number;
  width: number;
  height: number;
  /** 'pending' | 'claimed' | 'done' */
  status: string;
  run_id: number | null;
  claim_token: string | null;
  /** Heartbeat of the claim: claims older than the claim lifetime are claimable again. */
  claimed_at: string | null;
  created_at: string;
  label: string | null;
  probability: number | null;
  accepted: number | null;
  /** JSON [{label, probability}] */
  top3: string | null;
  model: string | null;
  /** Stored file name under MEDIA_DIR/heatmaps/<user_id>/ */
  heatmap_file: string | null;
  predicted_at: string | null;
  /** null (accepted or not identified yet) | 'not_leaf' | 'low_confidence' (migration 0004) */
  reason: string | null;
  /** The model's `leaf` output, null when it has none (migration 0004). */
  leaf_probability: number | null;
  /** The model's `lab_like` output, null when it has none (migration 0007). */
  lab_like: number | null;
}

/** A light copy of each finished diagnosis (survives 'start anew'). */
export interface DiagnosisHistoryTable {
  id: Generated<number>;
  user_id: number;
  image_id: number;
  name_img: string;
  label: string;
  probability: number;
  accepted: number;
  top3: string;
  model: string;
  /** Stored file name under MEDIA_DIR/thumbs/<user_id>/ */
  thumb_file: string;
  created_at: string;
  /** null (accepted) | 'not_leaf' | 'low_confidence' (migration 0004) */
  reason: string | null;
  leaf_probability: number | null;
  /** The model's `lab_like` output, null when it has none (migration 0007). */
  lab_like: number | null;
  /** The id a device gave a diagnosis it made offline (migration 0006); null for the server's. */
  client_id: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
  contact_messages: ContactMessagesTable;
  rate_limits: RateLimitsTable;
  diagnosis_settings: DiagnosisSettingsTable;
  diagnosis_runs: DiagnosisRunsTable;
  diagnosis_images: DiagnosisImagesTable;
  diagnosis_history: DiagnosisHistoryTable;
}
