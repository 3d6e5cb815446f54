// Creates an account from the command line (operators, and the end-to-end test fixtures):
//   npx tsx apps/server/src/cli/create-user.ts --user NAME --password PASS \
//     --first-name F --last-name L --email E [--country MX] [--city C] [--organisation-type 1-6]
//     [--organisation-name O] [--purpose 1-6] [--language es|en]
// First name, last name and e-mail are asked for when they are not given and a person is at the
// terminal. The fields are checked with the registration rules of @diagrodl/contracts (the same
// messages as the registration form), and the user name and e-mail must be free.
// Uses the same configuration (DATA_DIR / DATABASE_URL) as the server.
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { licenceField, parseRegistration } from '@diagrodl/contracts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { nowIso } from '../lib/tokens.ts';
import { hashPassword } from '../modules/users/passwords.ts';
import { newUserRow, UserRepository } from '../modules/users/user.repository.ts';

const USAGE =
  'usage: create-user --user NAME --password PASS --first-name F --last-name L --email E ' +
  '[--country MX] [--city C] [--organisation-type 1-6] [--organisation-name O] [--purpose 1-6] ' +
  '[--language es|en]';

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
  },
});

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

if (!values.user || !values.password) {
  console.error(USAGE);
  process.exit(2);
}
if (values.language !== 'es' && values.language !== 'en') {
  console.error('--language must be es or en');
  process.exit(2);
}
const config = loadConfig();
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
if (!parsed.ok) {
  console.error(parsed.message);
  console.error(USAGE);
  process.exit(2);
}
const r = parsed.value;
const db = await openDatabase(config.database);
try {
  const users = new UserRepository(db.kysely);
  if ((await users.findByUserName(r.userName)) ?? (await users.findByEmail(r.email))) {
    console.error('That user name or e-mail is already registered.');
    process.exitCode = 1;
  } else {
    const now = nowIso();
    const id = await users.insert(
      newUserRow(r, values.language, await hashPassword(values.password), now),
    );
    console.log(JSON.stringify({ id, userName: r.userName }));
  }
} finally {
  await db.close();
}
