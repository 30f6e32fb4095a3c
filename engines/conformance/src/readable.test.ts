import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groupLogicalLines, parseLine, renderLine } from './readable.ts';
import { TESTDATA } from './testdata.ts';
import { canonicalLines } from './transcript.ts';

describe('the readable form of effect lines', () => {
  it('shows a message on one line, ballots as round.leader', () => {
    const line = 'n0: {"type":"send","msg":{"type":"prepare_response","from":0,"to":1,"channel_id":1,"ok":true,"ballot":257,"instances":[]}} m3';
    expect(renderLine(line)).toBe('m3 n0->n1 prepare_response ch=1 ok b=1.1 instances=[]');
    expect(parseLine('m3 n0->n1 prepare_response ch=1 ok b=1.1 instances=[]')).toBe(line);
  });
  it('shows timers in milliseconds, exact to the microsecond', () => {
    expect(renderLine('n1: {"type":"set_timer","timer":"election","delay_us":295524}')).toBe('n1 timer election 295.524ms');
    expect(renderLine('n1: {"type":"set_timer","timer":"commit","delay_us":7}')).toBe('n1 timer commit 0.007ms');
    expect(parseLine('n1 timer commit 0.007ms')).toBe('n1: {"type":"set_timer","timer":"commit","delay_us":7}');
    expect(renderLine('n1: {"type":"cancel_timer","timer":"election"}')).toBe('n1 cancel election');
  });
  it('shows traces, replies and commands with their operands in place', () => {
    expect(renderLine('n1: {"type":"trace","kind":"leader","ballot":257,"last_index":0}')).toBe('n1 trace leader b=1.1 last_index=0');
    expect(renderLine('n1: {"type":"reply","client_id":7,"request_id":2,"result":"ok","value":"1"}')).toBe('n1 reply client=7 req=2 result=ok value="1"');
    const accept =
      'n1: {"type":"send","msg":{"type":"accept_request","from":1,"to":2,"channel_id":3,"instance":{"ballot":512,"index":3,"client_id":1,"request_id":1,"state":"in_progress","command":{"type":"put","key":"x","value":"a b"}}}} m9';
    expect(renderLine(accept)).toBe('m9 n1->n2 accept_request ch=3 instance=(b=2.0 i=3 client=1 req=1 state=in_progress cmd=(put x "a b"))');
    expect(parseLine(renderLine(accept))).toBe(accept);
  });
  it('marks a message lost on a cut link, and the initial ballot as having no leader', () => {
    const lost = 'n2: {"type":"send","msg":{"type":"prepare_request","from":2,"to":1,"channel_id":1,"ballot":15}} lost (link 2->1 is cut)';
    expect(renderLine(lost)).toBe('n2->n1 prepare_request ch=1 b=0.- lost (link 2->1 is cut)');
    expect(parseLine(renderLine(lost))).toBe(lost);
  });
  it('leaves a line it cannot render losslessly in canonical form', () => {
    for (const line of [
      'n0: {"kind":"leader","type":"trace"}', // an unexpected field order
      'n0: {"type":"send","msg":{"type":"accept_request","from":1,"to":2}} m4', // sent by another node than the one emitting it
      'n0: {"type":"set_timer","timer":"election","delay_us":1.5}',
      'n0: {"type":"trace","kind":"leader","ballot":-1}',
      'n0: {"type":"weird","Field":1}',
      'n0: {"type":"trace","kind":"x","note":"true"}',
      'n0: {"id":0,"role":"follower","log":[{"type":"x"}]}', // an inspect view whose log entry would read as a tagged object
      'n0: {"log":[{"ballot":1}]}', // an inspect view that starts with a list
      'n0: {not json',
    ]) {
      const r = renderLine(line);
      expect(parseLine(r), line).toBe(line);
    }
    expect(renderLine('n0: {"type":"trace","kind":"x","note":"true"}')).toBe('n0 trace x note="true"');
  });
  it('quotes a field whose own name is a short name, so it does not read as the long one', () => {
    const line = 'n0: {"type":"trace","kind":"leader","b":257,"client":true,"client_id":3}';
    expect(renderLine(line)).toBe('n0 trace leader "b"=257 "client" client=3');
    expect(parseLine(renderLine(line))).toBe(line);
    expect(parseLine('n0 trace leader "note"=1')).toBe('n0 trace leader "note"=1'); // only short names are quoted
  });
  it('shows a dump (the inspect view) as a few short lines, ballots as the effects show them', () => {
    const view = {
      id: 0, num_peers: 3, role: 'leader', ballot: 768, leader: 0, commit_received: false,
      last_index: 2, last_executed: 1, global_last_executed: 0,
      log: [
        { ballot: 257, index: 1, client_id: 9, request_id: 1, state: 'executed', command: { type: 'put', key: 'a', value: '1' } },
        { ballot: 768, index: 2, client_id: 9, request_id: 2, state: 'in_progress', command: { type: 'get', key: 'a' } },
      ],
      kv: { size: 1, digest: 'e5d2e8190426ecef', entries: [['a', '1']] },
      prepare: null,
      accepts: [{ channel_id: 3, index: 2, votes: 1, ticks: 0, client: true }],
      replay_remaining: 0, commit_round: { channel_id: 2, answered: 0 }, commit_gle: 0,
      counters: { events: 7, violations: 0 },
    };
    const line = `n0: ${JSON.stringify(view)}`;
    const readable = renderLine(line);
    expect(readable.split('\n')).toEqual([
      'n0 dump id=0 num_peers=3 role=leader b=3.0 leader=0 !commit_received',
      '  last_index=2 last_executed=1 gle=0',
      '  log:',
      '    (b=1.1 i=1 client=9 req=1 state=executed cmd=(put a "1"))',
      '    (b=3.0 i=2 client=9 req=2 state=in_progress cmd=(get a))',
      '  kv=(size=1 digest=e5d2e8190426ecef entries=[[a "1"]])',
      '  prepare=null',
      '  accepts:',
      '    (ch=3 i=2 votes=1 ticks=0 "client")',
      '  replay_remaining=0',
      '  commit_round=(ch=2 answered=0) commit_gle=0',
      '  counters=(events=7 violations=0)',
    ]);
    // The effects write the same ballot the same way.
    expect(renderLine('n0: {"type":"trace","kind":"leader","ballot":768,"last_index":2}')).toBe('n0 trace leader b=3.0 last_index=2');
    expect(parseLine(readable)).toBe(line);
    // Lines grouped from a block's text come back as the one logical line.
    expect(groupLogicalLines(['ok', ...readable.split('\n'), 'n1: down'])).toEqual(['ok', readable, 'n1: down']);
    const empty = `n1: ${JSON.stringify({ ...view, log: [], accepts: [] })}`;
    expect(renderLine(empty)).toContain('\n  log=[]\n  kv=');
    expect(parseLine(renderLine(empty))).toBe(empty);
  });
  it('reads a malformed dump as no dump at all', () => {
    for (const text of ['n0 dump', 'n0 dump id=0\n  log:', 'n0 dump id=0\n   role=leader', 'n0 dump id=0\n  kv:\n    1', 'n0 dump type=x']) {
      expect(parseLine(text), text).toBe(text);
    }
  });
  it('passes the harness lines through', () => {
    for (const line of ['m3: 0->1 prepare_response', 'n1: fire election', 'n0 disk 0: {"kind":"promise","ballot":257}', 'link 2->1 cut', 'ok', '3 x n0 trace instance']) {
      expect(renderLine(line)).toBe(line);
      expect(parseLine(line)).toBe(line);
    }
  });
  it('is the exact inverse on every line of every transcript', () => {
    let rendered = 0;
    for (const file of readdirSync(TESTDATA).filter((f) => f.endsWith('.txt'))) {
      for (const line of canonicalLines(readFileSync(join(TESTDATA, file), 'utf8'))) {
        const r = renderLine(line);
        expect(parseLine(r), `${file}: ${line}`).toBe(line);
        if (r !== line) rendered++;
        // Every effect line and every dump has a readable form.
        expect(/^n\d+: \{/.test(r), `${file}: ${line}`).toBe(false);
      }
    }
    expect(rendered).toBeGreaterThan(5000);
  });
});
