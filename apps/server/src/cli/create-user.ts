// Creates an account from the command line (operators, and the end-to-end test fixtures):
//   npx tsx apps/server/src/cli/create-user.ts --user NAME --password PASS \
//     --first-name F --last-name L --email E [--country MX] [--city C] [--organisation-type 1-6]
//     [--organisation-name O] [--purpose 1-6] [--language es|en]
// First name, last name and e-mail are asked for when they are not given and a person is at the
// terminal. The fields are checked with the registration rules of @diagrodl/contracts (the same
// messages as the registration form), the password with the rules of the password change and
// reset forms, and the user name and e-mail must be free. Bad input (options, fields, password,
// environment) prints one message and exits 2; a user name or e-mail already registered, or any
// other failure, exits 1 (runOperatorCli). Uses the same configuration (DATA_DIR / DATABASE_URL)
// as the server.
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import {
  PASSWORD_MESSAGES,
  checkNewPassword,
  licenceField,
  parseRegistration,
} from '@diagrodl/contracts';
import { openDatabase } from '../db/database.ts';
import { nowIso } from '../lib/tokens.ts';
import { hashPassword } from '../modules/users/passwords.ts';
import { newUserRow, UserRepository } from '../modules/users/user.repository.ts';
import { OperatorError, operatorConfig, runOperatorCli } from './operator.ts';

const USAGE =
  'usage: create-user --user NAME --password PASS --first-name F --last-name L --email E ' +
  '[--country MX] [--city C] [--organisation-type 1-6] [--organisation-name O] [--purpose 1-6] ' +
  '[--language es|en]';

const TAKEN = 'That user name or e-mail is already registered.';

/** The flag's value, else the answer to a question when a person is at the terminal. */
async function valueOrAsk(flag: string | undefined, question: string): Promise<string> {
  if (flag !== undefined) return flag;
  if (!process.stdin.isTTY) return '';
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(`${question}: `)).trim();
  } finally {
    rl.close();
  }
}

/** A unique index refused the row (another command or the registration form was faster). */
function isUniqueViolation(err: unknown): boolean {
  const code = String((err as { code?: unknown }).code);
  return code === '23505' || code.startsWith('SQLITE_CONSTRAINT');
}

await runOperatorCli('create-user', USAGE, async () => {
  const { values } = parseArgs({
    options: {
      user: { type: 'string' },
      password: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      email: { type: 'string' },
      country: { type: 'string', default: 'MX' },
      city: { type: 'string', default: 'Sin especificar' },
      'organisation-type': { type: 'string', default: '6' },
      'organisation-name': { type: 'string', default: 'Sin especificar' },
      purpose: { type: 'string', default: '6' },
      language: { type: 'string', default: 'es' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (!values.user || !values.password) {
    throw new OperatorError('--user NAME and --password PASS are required', true);
  }
  if (values.language !== 'es' && values.language !== 'en') {
    throw new OperatorError('--language must be es or en');
  }
  const config = operatorConfig(undefined);
  const firstName = await valueOrAsk(values['first-name'], 'Nombre (First name)');
  const lastName = await valueOrAsk(values['last-name'], 'Apellidos (Last name)');
  const email = await valueOrAsk(values.email, 'Correo electrónico (Email)');
  const parsed = parseRegistration(
    {
      User_name: values.user,
      First_name: firstName,
      Last_name: lastName,
      Email: email,
      Country: values.country.toUpperCase(),
      City: values.city,
      Organisation_type: values['organisation-type'],
      Organisation_name: values['organisation-name'],
      Purpose_use: values.purpose,
      Aceppt_terms: true,
      Give_permission: false,
      Subscribe_update: false,
      [licenceField(config.providerKey)]: true,
    },
    config.providerKey,
    config.providerName,
  );
  if (!parsed.ok) throw new OperatorError(parsed.message, true);
  const r = parsed.value;
  // The rules of the password change and reset forms (length, a letter and a digit, not the
  // user name).
  const problem = checkNewPassword(values.password, r.userName);
  if (problem) throw new OperatorError(PASSWORD_MESSAGES[problem]);

  const db = await openDatabase(config.database);
  try {
    const users = new UserRepository(db.kysely);
    if ((await users.findByUserName(r.userName)) ?? (await users.findByEmail(r.email))) {
      throw new Error(TAKEN);
    }
    const row = newUserRow(r, values.language, await hashPassword(values.password), nowIso());
    const id = await users.insert(row).catch((err: unknown) => {
      throw isUniqueViolation(err) ? new Error(TAKEN) : err;
    });
    process.stdout.write(`${JSON.stringify({ id, userName: r.userName })}\n`);
  } finally {
    await db.close();
  }
});
