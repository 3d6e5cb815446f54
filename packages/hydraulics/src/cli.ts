#!/usr/bin/env -S npx tsx
/**
 * Hydraulics command-line tool. Usage:
 *   npm run -s hydro -- <convert|lateral|secondary|mainline|et0|schedule> [--input FILE] [--epanet FILE]
 * Reads one JSON object from stdin (or FILE) and writes one JSON object to stdout. Invalid input:
 * exit code 2 and a message naming the field on stderr. `--epanet FILE` (mainline) also writes
 * the design as an EPANET input file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { CliInputError, COMMANDS, runCommand } from './cli-commands';

const USAGE = `usage: hydro <${COMMANDS.join('|')}> [--input FILE] [--epanet FILE]`;

interface Arguments {
  command: string;
  input?: string;
  epanet?: string;
}

function parseArguments(argv: string[]): Arguments {
  const positional: string[] = [];
  const args: Partial<Arguments> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--input' || arg === '--epanet') {
      const value = argv[++i];
      if (!value) throw new CliInputError(`${arg}: a file name is required`);
      args[arg === '--input' ? 'input' : 'epanet'] = value;
    } else if (arg.startsWith('--input=') || arg.startsWith('--epanet=')) {
      const [name, value] = arg.slice(2).split(/=(.*)/s) as [string, string];
      args[name as 'input' | 'epanet'] = value;
    } else if (arg.startsWith('-')) {
      throw new CliInputError(`${arg}: unknown option. ${USAGE}`);
    } else {
      positional.push(arg);
    }
  }
  if (positional.length !== 1) throw new CliInputError(USAGE);
  return { ...args, command: positional[0]! };
}

function readInput(file: string | undefined): unknown {
  let text: string;
  try {
    text = readFileSync(file ?? 0, 'utf8');
  } catch (error) {
    throw new CliInputError(`--input: cannot read ${file ?? 'stdin'}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliInputError(`input: not valid JSON (${(error as Error).message})`);
  }
}

function main(argv: string[]): number {
  try {
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const args = parseArguments(argv);
    const result = runCommand(args.command, readInput(args.input), {
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
