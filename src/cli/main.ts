import { HarnessError } from '../errors.js';
import { commands, loadRunCommand } from './commands/index.js';

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  const subcommand = first !== undefined ? commands[first] : undefined;
  return subcommand ? (await subcommand())(rest) : (await loadRunCommand())(argv);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof HarnessError) {
      console.error(error.oneLine());
    } else {
      console.error(
        `HARNESS_INTERNAL: ${error instanceof Error ? error.message : String(error)}. This is a bug in the suite; please report it`,
      );
    }
    process.exitCode = 2;
  },
);
