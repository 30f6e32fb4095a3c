import { describe, expect, it } from 'vitest';
import { blockMismatch, formatTranscript, parseTranscript, renderItems, type Block } from './transcript.ts';

const SEND = (ok: boolean) => `n2: {"type":"send","msg":{"type":"prepare_response","from":2,"to":1,"channel_id":1,"ok":${ok},"ballot":257,"instances":[]}} m4`;

function block(text: string): Block {
  return parseTranscript(text)[0] as Block;
}

describe('transcript blocks', () => {
  const canonical = ['m2: 1->2 prepare_request', SEND(true), 'm3: 0->1 prepare_response', 'n1: {"type":"trace","kind":"leader","ballot":257,"last_index":0}'];
  it('accept the expected output in either form, byte for byte', () => {
    const old = block(`deliver all\n----\n${canonical.join('\n')}\n`);
    const readable = renderItems([old])[0] as Block;
    expect(readable.expected).toEqual(['m2: 1->2 prepare_request', 'm4 n2->n1 prepare_response ch=1 ok b=1.1 instances=[]', 'm3: 0->1 prepare_response', 'n1 trace leader b=1.1 last_index=0']);
    expect(blockMismatch(old, canonical)).toBeNull();
    expect(blockMismatch(readable, canonical)).toBeNull();
    expect(parseTranscript(formatTranscript([readable]))).toEqual([{ ...readable, lineNo: 1 }]);
  });
  it('report a difference as a readable diff and the first differing canonical line', () => {
    const readable = renderItems([block(`deliver all\n----\n${canonical.join('\n')}\n`)])[0] as Block;
    const actual = [...canonical];
    actual[1] = SEND(false);
    expect(blockMismatch(readable, actual)).toBe(
      [
        'block `deliver all` (line 1), output line 2:',
        '      m2: 1->2 prepare_request',
        '    - m4 n2->n1 prepare_response ch=1 ok b=1.1 instances=[]',
        '    + m4 n2->n1 prepare_response ch=1 !ok b=1.1 instances=[]',
        '      m3: 0->1 prepare_response',
        '  first differing canonical line:',
        `    expected: ${SEND(true)}`,
        `    actual:   ${SEND(false)}`,
      ].join('\n'),
    );
    expect(blockMismatch(readable, canonical.slice(0, 3))).toContain('    - n1 trace leader b=1.1 last_index=0');
  });
  it('compare a dump by its canonical bytes: any changed field in the inspect view fails', () => {
    const view = { id: 1, role: 'leader', ballot: 257, log: [{ ballot: 257, index: 1, state: 'executed' }], kv: { size: 1, digest: 'e5d2e8190426ecef' }, counters: { events: 9 } };
    const dump = (v: object) => `n1: ${JSON.stringify(v)}`;
    const readable = renderItems([block(`dump node=1\n----\n${dump(view)}\n`)])[0] as Block;
    expect(readable.expected.length).toBeGreaterThan(1); // written over several lines
    expect(blockMismatch(readable, [dump(view)])).toBeNull();
    const changed = [
      { ...view, counters: { events: 10 } },
      { ...view, kv: { size: 1, digest: 'e5d2e8190426eceF' } },
      { ...view, log: [{ ballot: 258, index: 1, state: 'executed' }] },
      { ...view, ballot: 257.5 },
      { role: 'leader', id: 1, ballot: 257, log: view.log, kv: view.kv, counters: view.counters }, // the same fields in another order
    ];
    for (const v of changed) expect(blockMismatch(readable, [dump(v)]), JSON.stringify(v)).toContain('first differing canonical line');
    // The diff shows each line of both dumps under its mark.
    expect(blockMismatch(readable, [dump(changed[0]!)])).toContain('    + n1 dump id=1 role=leader b=1.1\n    +   log:\n');
  });
});
