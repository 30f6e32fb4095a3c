// Tests of the shell helpers that npm start / npm test source (scripts/lib.sh).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const lib = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'lib.sh');

test('lib.sh drops the nodedir setting npm hands down, so nested npm calls do not warn about it', () => {
  const r = spawnSync('bash', ['-c', `source "${lib}"; echo "[\${npm_config_nodedir:-}][\${NPM_CONFIG_NODEDIR:-}]"`], {
    encoding: 'utf8',
    env: { ...process.env, npm_config_nodedir: '/usr', NPM_CONFIG_NODEDIR: '/usr' },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), '[][]');
});
