// The options of `npm run fidelity` (fidelity-cli.ts), checked before anything runs: a whole run
// takes minutes and rewrites data/fidelity.csv and docs/fidelity.md, so an option it does not know
// (a typo, or `--help`) must stop it with a message, never be ignored.

export const FIDELITY_USAGE = `npm run fidelity -- [options]
  (no options)        every point with the Lab's default card; writes data/fidelity.csv and docs/fidelity.md
  --card FILE         another model card (a candidate); writes data/fidelity-candidate-<version>.csv only
  --cache DIR         keep each sweep's searches and each run in DIR and reuse them
  --shard S           with --cache: compute one part and stop; S is sweep:N[:ENGINE], runs or
                      run:ENGINE/A|B/GIB/VCPUS/OPS/SECONDS
  --cached-only       with --cache: write the table from the cache; points not in it keep their old rows
  --render-only       re-render docs/fidelity.md from data/fidelity.csv
  --native FILE[:ENGINES]...  the simulator beside native results instead; with --card lab (the
                      default), machine (the machine card the report uses, REPORT_MACHINE_CARD) or a card
                      file, several allowed (see fidelity-native-cli.ts)
  --help              this text`;

const WITH_VALUE = new Set(['--card', '--cache', '--shard']);
const FLAGS = new Set(['--cached-only', '--render-only']);

/** 'help' when the usage is asked for, 'native' for --native (its own arguments follow), else
 * 'run'; throws on an option it does not know or a stray argument. */
export function checkFidelityArgs(args: string[]): 'help' | 'native' | 'run' {
  if (args.includes('--help') || args.includes('-h')) return 'help';
  if (args.includes('--native')) return 'native';
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (WITH_VALUE.has(a)) {
      const v = args[i + 1];
      if (v === undefined || v.startsWith('--')) throw new Error(`${a} needs a value`);
      i++;
    } else if (!FLAGS.has(a)) {
      throw new Error(`unknown ${a.startsWith('-') ? 'option' : 'argument'} ${JSON.stringify(a)} (npm run fidelity -- --help lists the options)`);
    }
  }
  return 'run';
}
