import { describe, expect, it } from 'vitest';
import { parseEffect } from './effects.ts';

/** What parseEffect gave before its reply fast path: JSON.parse of the whole line. */
function viaJson(line: string) {
  const o = JSON.parse(line) as Record<string, unknown>;
  const r: Record<string, unknown> = { kind: 'reply', client_id: o.client_id, request_id: o.request_id, result: o.result, line };
  if (typeof o.value === 'string') r.value = o.value;
  if (typeof o.leader === 'number') r.leader = o.leader;
  return r;
}

describe('parseEffect: replies', () => {
  const lines = [
    '{"type":"reply","client_id":1000,"request_id":1,"result":"ok","value":""}',
    '{"type":"reply","client_id":1063,"request_id":987654,"result":"ok","value":"' + 'v'.repeat(500) + '"}',
    '{"type":"reply","client_id":7,"request_id":1,"result":"not_found"}',
    '{"type":"reply","client_id":7,"request_id":1,"result":"retry"}',
    '{"type":"reply","client_id":7,"request_id":1,"result":"leader_is","leader":2}',
    '{"type":"reply","client_id":7,"request_id":1,"result":"bad_command"}',
    // escapes and other forms: the JSON parse decides
    '{"type":"reply","client_id":7,"request_id":1,"result":"ok","value":"a\\"b\\\\c\\u00e9"}',
    '{"type":"reply","client_id":7,"request_id":1,"result":"ok","value":"x","extra":1}',
    '{"type":"reply","client_id":7, "request_id":1,"result":"ok"}',
    '{"type":"reply","client_id":1e3,"request_id":1,"result":"ok"}',
    '{"type":"reply","client_id":-0,"request_id":1,"result":"ok"}',
  ];
  for (const line of lines) {
    it(`reads ${line.slice(0, 70)} as a JSON parse does`, () => {
      expect(parseEffect(line)).toEqual(viaJson(line));
    });
  }

  it('a malformed reply still throws (nothing is made up)', () => {
    expect(() => parseEffect('{"type":"reply","client_id":,"request_id":1,"result":"ok"}')).toThrow();
    expect(() => parseEffect('{"type":"reply","client_id":7,"request_id":1,"result":"ok","value":"v"')).toThrow();
  });
});
