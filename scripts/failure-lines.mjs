// failure-lines LOG [N]: the first N lines of a test log that say what failed (test names,
// assertion messages, errors), colours removed; the end of the log when nothing matches.
import { readFileSync } from 'node:fs';

export function failureLines(text, n) {
  // eslint-disable-next-line no-control-regex
  const lines = text.replace(/\x1b\[[0-9;]*m/g, '').split('\n').map((l) => l.trimEnd());
  const telling = /(✘|×|FAIL\b|--- FAIL|Error:|AssertionError|expected|Expected|Received|panicked|Timed out|Timeout|timed out|Tests run:.*Failures: [1-9]|exit code [1-9])/;
  const picked = [];
  for (const line of lines) {
    if (telling.test(line) && !picked.includes(line.trim())) picked.push(line.trim());
    if (picked.length >= n) break;
  }
  if (picked.length > 0) return picked.map((l) => l.slice(0, 200));
  return lines.filter((l) => l.trim() !== '').slice(-n).map((l) => l.slice(0, 200));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, n = '8'] = process.argv.slice(2);
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    console.log(`(no log: ${err.message})`);
    process.exit(0);
  }
  for (const line of failureLines(text, Number(n))) console.log(line);
}
