/**
 * What the operator commands (`npm run backup`, `npm run restore`, create-user) share: the error
 * for bad input, how a command runs (exit codes, working folder) and the configuration it acts on.
 */
import path from 'node:path';
import { type Config, ConfigError, loadConfig } from '../config.ts';

/** Bad input (arguments, archive, target, mode): the message is for the operator, exit code 2. */
export class OperatorError extends Error {
  constructor(
    message: string,
    /** Whether the command's usage line should follow the message (a wrong command line). */
    readonly usage = false,
  ) {
    super(message);
    this.name = 'OperatorError';
  }
}

/**
 * Runs an operator command: relative paths from where it was typed (`npm run` changes to the
 * repository root; INIT_CWD is where the command was typed); bad input (an OperatorError, or an
 * option parseArgs refuses) prints its message and exits 2, anything else prints and exits 1.
 */
export async function runOperatorCli(
  name: string,
  usage: string,
  main: () => Promise<void>,
): Promise<void> {
  if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
  try {
    await main();
  } catch (err) {
    const parseError = String((err as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS');
    if (err instanceof OperatorError || parseError) {
      const withUsage = parseError || (err as OperatorError).usage;
      process.stderr.write(`${name}: ${(err as Error).message}\n${withUsage ? `${usage}\n` : ''}`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`${name} failed: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}

/**
 * The configuration of the server these commands act on: the environment's (DATA_DIR,
 * MEDIA_DIR, DATABASE_URL), with DATA_DIR replaced by `dataDir` when given.
 */
export function operatorConfig(dataDir: string | undefined): Config {
  try {
    return loadConfig(
      dataDir === undefined ? process.env : { ...process.env, DATA_DIR: path.resolve(dataDir) },
    );
  } catch (err) {
    if (err instanceof ConfigError) throw new OperatorError(err.message);
    throw err;
  }
}
