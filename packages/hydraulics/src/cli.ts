#!/usr/bin/env -S npx tsx
/**
 * Hydraulics command-line tool. Usage:
 *   npm run -s hydro -- <convert|lateral|secondary|mainline|et0|schedule|balance|effective-rain|risk>
 *     [--input FILE] [--params FILE.json] [--epanet FILE]
 *   npm run -s risk -- [--input FILE.csv]
 * Reads one JSON object from stdin (or FILE) and writes one JSON object to stdout. Invalid input:
 * exit code 2 and a message naming the field on stderr. `--epanet FILE` (mainline) also writes
 * the design as an EPANET input file. A FILE ending in .csv is a weather CSV (balance: daily,
 * risk: hourly), and `--params FILE.json` gives the other inputs (required for balance).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { CliInputError, COMMANDS, csvCommandInput, runCommand } from './cli-commands';

const USAGE = `usage: hydro <${COMMANDS.join('|')}> [--input FILE] [--params FILE.json] [--epanet FILE]`;

const OPTIONS = ['input', 'params', 'epanet'] as const;
type Option = (typeof OPTIONS)[number];

interface Arguments {
  command: string;
  input?: string;
  params?: string;
  epanet?: string;
}

function parseArguments(argv: string[]): Arguments {
  const positional: string[] = [];
  const args: Partial<Arguments> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const option = OPTIONS.find((name) => arg === `--${name}`);
    if (option !== undefined) {
      const value = argv[++i];
      if (!value) throw new CliInputError(`${arg}: a file name is required`);
      args[option] = value;
    } else if (OPTIONS.some((name) => arg.startsWith(`--${name}=`))) {
      const [name, value] = arg.slice(2).split(/=(.*)/s) as [Option, string];
      args[name] = value;
    } else if (arg.startsWith('-')) {
      throw new CliInputError(`${arg}: unknown option. ${USAGE}`);
    } else {
      positional.push(arg);
    }
  }
  if (positional.length !== 1) throw new CliInputError(USAGE);
  return { ...args, command: positional[0]! };
}

function readText(file: string | undefined, option = '--input'): string {
  try {
    return readFileSync(file ?? 0, 'utf8');
  } catch (error) {
    throw new CliInputError(
      `${option}: cannot read ${file ?? 'stdin'}: ${(error as Error).message}`,
    );
  }
}

function parseJson(text: string, what = 'input'): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliInputError(`${what}: not valid JSON (${(error as Error).message})`);
  }
}

/** The command's input: JSON from stdin or --input, or a weather CSV (--input FILE.csv) with --params. */
function readInput(args: Arguments): unknown {
  const params =
    args.params === undefined
      ? undefined
      : parseJson(readText(args.params, '--params'), '--params');
  if (args.input !== undefined && /\.csv$/i.test(args.input)) {
    return csvCommandInput(args.command, readText(args.input), params);
  }
  if (params !== undefined) throw new CliInputError('--params: only with --input FILE.csv');
  return parseJson(readText(args.input));
}

function main(argv: string[]): number {
  try {
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const args = parseArguments(argv);
    const result = runCommand(args.command, readInput(args), {
      epanet: args.epanet !== undefined,
    });
    if (args.epanet !== undefined && result.epanetInp !== undefined) {
      writeFileSync(args.epanet, result.epanetInp);
    }
    process.stdout.write(`${JSON.stringify(result.output, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof CliInputError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2));
