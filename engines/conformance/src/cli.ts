// npm run conformance -- --engine go|cpp|rust|java|all --target native|wasm-node|wasm-browser
//                        [--rewrite] [--run REGEX] [--twice] [--binary]
// npm run conformance -- --canonical [--run REGEX]
// Runs every transcript of engines/conformance/testdata on each engine and prints, per
// engine, a final line `N passed, M failed`. --rewrite writes the actual output back into the
// files in the readable form (review the diff!); --twice runs each transcript twice and
// demands identical bytes; --binary steps every event twice, on JSON and through the binary
// step, and demands the same effects and inspect views (binary-sameness.ts); --canonical prints the expected lines as the cores' exact bytes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ENGINE_NAMES, EngineName, TARGETS, Target, AsyncEngine } from '../../loader/engine.ts';
import { blockMismatch, type Block, canonicalLines, formatTranscript, type Item, parseTranscript, renderItems, TranscriptRunner } from './transcript.ts';
import { openEngine } from './targets.ts';
import { binaryTwins, type SamenessCount } from './binary-sameness.ts';
import { firstDifference } from './difference.ts';
import { TESTDATA, transcriptFiles } from './testdata.ts';

export { TESTDATA, transcriptFiles, firstDifference };

function blocks(items: Item[]): Block[] {
  return items.filter((i): i is Block => i.kind === 'command');
}

async function runEngine(engine: AsyncEngine, files: string[], opts: { rewrite: boolean; twice: boolean }) {
  let passed = 0;
  let failed = 0;
  for (const file of files) {
    const path = join(TESTDATA, file);
    const text = readFileSync(path, 'utf8');
    const items = parseTranscript(text, file);
    let actual: Item[];
    try {
      actual = await new TranscriptRunner(engine).run(items);
      if (opts.twice) {
        const once = formatTranscript(actual);
        const again = formatTranscript(await new TranscriptRunner(engine).run(items));
        if (again !== once) throw new Error(`not deterministic: ${firstDifference(once, again)}`);
      }
    } catch (err) {
      failed++;
      console.log(`FAIL ${engine.name}/${engine.target} ${file}: ${(err as Error).message}`);
      continue;
    }
    const want = blocks(items);
    const got = blocks(actual);
    const mismatch = want.map((b, i) => blockMismatch(b, got[i]!.expected)).find((m) => m !== null) ?? null;
    if (mismatch === null) {
      passed++;
      const readable = formatTranscript(renderItems(actual));
      if (opts.rewrite && readable !== text) {
        writeFileSync(path, readable);
        console.log(`rewrote ${file} (same bytes, readable form)`);
      }
    } else if (opts.rewrite) {
      writeFileSync(path, formatTranscript(renderItems(actual)));
      passed++;
      console.log(`rewrote ${file}`);
    } else {
      failed++;
      console.log(`FAIL ${engine.name}/${engine.target} ${file} at ${mismatch}`);
    }
  }
  return { passed, failed };
}

/** `--canonical`: prints every expected output line of the transcripts in canonical form (fuzz seeds). */
function printCanonical(files: string[]): void {
  for (const file of files) for (const line of canonicalLines(readFileSync(join(TESTDATA, file), 'utf8'), file)) console.log(line);
}

async function main() {
  const { values } = parseArgs({
    options: {
      engine: { type: 'string', default: 'go' },
      target: { type: 'string', default: 'native' },
      rewrite: { type: 'boolean', default: false },
      twice: { type: 'boolean', default: false },
      run: { type: 'string' },
      canonical: { type: 'boolean', default: false },
      binary: { type: 'boolean', default: false },
    },
  });
  if (values.canonical) return printCanonical(transcriptFiles(values.run ? new RegExp(values.run) : undefined));
  const engines = (values.engine === 'all' ? [...ENGINE_NAMES] : values.engine!.split(',')) as EngineName[];
  for (const e of engines) if (!ENGINE_NAMES.includes(e)) throw new Error(`unknown engine ${e}`);
  const target = values.target as Target;
  if (!TARGETS.includes(target)) throw new Error(`unknown target ${target}`);
  const files = transcriptFiles(values.run ? new RegExp(values.run) : undefined);
  let anyFailed = false;
  const summary: string[] = [];
  for (const name of engines) {
    const opened = await openEngine(name, target);
    const sameness: SamenessCount = { steps: 0, binary: 0, batched: 0, batches: 0 };
    const engine = values.binary ? binaryTwins(opened, sameness) : opened;
    try {
      const { passed, failed } = await runEngine(engine, files, { rewrite: values.rewrite!, twice: values.twice! });
      const batched = sameness.batches > 0 ? `; batch step against JSON: ${sameness.batched} events in ${sameness.batches} batches` : '';
      const binary = values.binary ? `; binary step against JSON: ${sameness.steps} events compared (${sameness.binary} of them binary)${batched}` : '';
      summary.push(`${name} (${target}): ${passed} passed, ${failed} failed${binary}`);
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
