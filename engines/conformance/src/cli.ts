// npm run conformance -- --engine go|cpp|rust|java|all --target native|wasm-node|wasm-browser
//                        [--rewrite] [--run REGEX] [--twice]
// Runs every transcript of engines/conformance/testdata on each engine and prints, per
// engine, a final line `N passed, M failed`. --rewrite writes the actual output back into the
// files (review the diff!); --twice runs each transcript twice and demands identical bytes.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ENGINE_NAMES, EngineName, TARGETS, Target, AsyncEngine } from '../../loader/engine.ts';
import { formatTranscript, parseTranscript, TranscriptRunner } from './transcript.ts';
import { openEngine } from './targets.ts';

export const TESTDATA = join(dirname(fileURLToPath(import.meta.url)), '../testdata');

export function transcriptFiles(filter?: RegExp): string[] {
  return readdirSync(TESTDATA)
    .filter((f) => f.endsWith('.txt') && (!filter || filter.test(f)))
    .sort();
}

/** First differing line of two outputs, for the failure report. */
export function firstDifference(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `line ${i + 1}:\n    expected: ${a[i] ?? '(end)'}\n    actual:   ${b[i] ?? '(end)'}`;
  }
  return 'identical';
}

async function runEngine(engine: AsyncEngine, files: string[], opts: { rewrite: boolean; twice: boolean }) {
  let passed = 0;
  let failed = 0;
  for (const file of files) {
    const path = join(TESTDATA, file);
    const text = readFileSync(path, 'utf8');
    const items = parseTranscript(text, file);
    let actual: string;
    try {
      actual = formatTranscript(await new TranscriptRunner(engine).run(items));
      if (opts.twice) {
        const again = formatTranscript(await new TranscriptRunner(engine).run(items));
        if (again !== actual) throw new Error(`not deterministic: ${firstDifference(actual, again)}`);
      }
    } catch (err) {
      failed++;
      console.log(`FAIL ${engine.name}/${engine.target} ${file}: ${(err as Error).message}`);
      continue;
    }
    if (actual === text) {
      passed++;
    } else if (opts.rewrite) {
      writeFileSync(path, actual);
      passed++;
      console.log(`rewrote ${file}`);
    } else {
      failed++;
      console.log(`FAIL ${engine.name}/${engine.target} ${file} at ${firstDifference(text, actual)}`);
    }
  }
  return { passed, failed };
}

async function main() {
  const { values } = parseArgs({
    options: {
      engine: { type: 'string', default: 'go' },
      target: { type: 'string', default: 'native' },
      rewrite: { type: 'boolean', default: false },
      twice: { type: 'boolean', default: false },
      run: { type: 'string' },
    },
  });
  const engines = (values.engine === 'all' ? [...ENGINE_NAMES] : values.engine!.split(',')) as EngineName[];
  for (const e of engines) if (!ENGINE_NAMES.includes(e)) throw new Error(`unknown engine ${e}`);
  const target = values.target as Target;
  if (!TARGETS.includes(target)) throw new Error(`unknown target ${target}`);
  const files = transcriptFiles(values.run ? new RegExp(values.run) : undefined);
  let anyFailed = false;
  const summary: string[] = [];
  for (const name of engines) {
    const engine = await openEngine(name, target);
    try {
      const { passed, failed } = await runEngine(engine, files, { rewrite: values.rewrite!, twice: values.twice! });
      summary.push(`${name} (${target}): ${passed} passed, ${failed} failed`);
      anyFailed ||= failed > 0;
    } finally {
      await engine.close();
    }
  }
  for (const line of summary) console.log(line);
  process.exitCode = anyFailed ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 2;
  });
}
