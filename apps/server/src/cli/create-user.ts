// Creates an account from the command line (operators, and the end-to-end test fixtures):
//   npx tsx apps/server/src/cli/create-user.ts --user NAME --password PASS [--email E] [--first-name F]
// Uses the same configuration (DATA_DIR / DATABASE_URL) as the server.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { createUserDirect } from '../testing/users.ts';

const { values } = parseArgs({
  options: {
    user: { type: 'string' },
    password: { type: 'string' },
    email: { type: 'string' },
    'first-name': { type: 'string' },
    language: { type: 'string' },
  },
});
if (!values.user || !values.password) {
  console.error(
    'usage: create-user --user NAME --password PASS [--email E] [--first-name F] [--language es|en]',
  );
  process.exit(2);
}
const db = await openDatabase(loadConfig().database);
try {
  const id = await createUserDirect(db, {
    userName: values.user,
    password: values.password,
    ...(values.email ? { email: values.email } : {}),
    ...(values['first-name'] ? { firstName: values['first-name'] } : {}),
    ...(values.language ? { language: values.language } : {}),
  });
  console.log(JSON.stringify({ id, userName: values.user }));
} finally {
  await db.close();
}
