// Reads the figures out of a fuzzer's log: libFuzzer's (C++, Rust's libfuzzer-sys, Jazzer) or
// `go test -fuzz`'s. Pure functions; scripts/fuzz.mjs runs the fuzzers, scripts/test/ tests these.

/** @typedef {{ inputs: number, seconds: number | null, exec_per_s: number | null, coverage: number | null, features: number | null, corpus: number | null, crashes: number, crash_lines: string[] }} FuzzFigures */

const num = (s) => (s === undefined ? null : Number(s));

/** libFuzzer: `Done N runs in S second(s)`, `stat::…` lines, the last `#N … cov: C ft: F corp: K/…` line. */
export function parseLibFuzzerLog(text) {
  const lines = text.split('\n');
  let inputs = 0, seconds = null, rate = null, coverage = null, features = null, corpus = null;
  const crash_lines = [];
  for (const line of lines) {
    let m;
    if ((m = /^Done (\d+) runs in (\d+) second/.exec(line))) {
      inputs = Number(m[1]);
      seconds = Number(m[2]);
    } else if ((m = /^stat::number_of_executed_units:\s+(\d+)/.exec(line))) inputs = Math.max(inputs, Number(m[1]));
    else if ((m = /^stat::average_exec_per_sec:\s+(\d+)/.exec(line))) rate = Number(m[1]);
    else if ((m = /^#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+) corp: (\d+)/.exec(line))) {
      inputs = Math.max(inputs, Number(m[1]));
      coverage = Number(m[2]);
      features = Number(m[3]);
      corpus = Number(m[4]);
    }
    if (/^==\d+==\s*ERROR|^SUMMARY: |^== Java Exception|^Test unit written to|^artifact_prefix=.*Test unit written|deadly signal|^==\d+== ERROR: libFuzzer/.test(line)) crash_lines.push(line.trim());
  }
  const crashes = crash_lines.some((l) => l.startsWith('Test unit written to')) ? crash_lines.filter((l) => l.startsWith('Test unit written to')).length : crash_lines.length > 0 ? 1 : 0;
  return { inputs, seconds, exec_per_s: rate, coverage, features, corpus, crashes, crash_lines };
}

/** go test -fuzz: `fuzz: elapsed: Ts, execs: N (R/sec), new interesting: I (total: K)` lines, `--- FAIL`. */
export function parseGoFuzzLog(text) {
  let inputs = 0, seconds = null, corpus = null;
  const crash_lines = [];
  for (const line of text.split('\n')) {
    let m;
    if ((m = /^fuzz: elapsed: (?:(\d+)h)?(?:(\d+)m)?(\d+)s, execs: (\d+) .*\(total: (\d+)\)/.exec(line))) {
      seconds = Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3]);
      inputs = Number(m[4]);
      corpus = Number(m[5]);
    }
    if (/^--- FAIL|Failing input written to|^panic: /.test(line.trim())) crash_lines.push(line.trim());
  }
  const crashes = crash_lines.some((l) => l.startsWith('--- FAIL')) ? 1 : 0;
  return { inputs, seconds, exec_per_s: seconds ? Math.round(inputs / seconds) : null, coverage: null, features: null, corpus: num(corpus ?? undefined), crashes, crash_lines };
}
