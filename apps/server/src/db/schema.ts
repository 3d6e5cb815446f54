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
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
  contact_messages: ContactMessagesTable;
}
