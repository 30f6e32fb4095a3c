import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TESTDATA } from '@replicant/engines/conformance/testdata';
import { canonicalLines } from '@replicant/engines/conformance/transcript';
import { dueText, explainEffect, explainEntry, explainEvent, humanNote, messageLabel, timerName } from './explain.ts';

const I = '{"ballot":257,"index":3,"client_id":7,"request_id":1,"state":"in_progress","command":{"type":"put","key":"k","value":"v w"}}';

describe('explainEffect: every effect type of docs/protocol.md', () => {
  const cases: [string, string][] = [
    ['{"type":"send","msg":{"type":"prepare_request","from":1,"to":0,"channel_id":3,"ballot":257}}', 'n1 asks n0 to promise ballot 1.1 (phase 1: prepare).'],
    ['{"type":"send","msg":{"type":"prepare_response","from":0,"to":1,"channel_id":3,"ok":true,"ballot":257,"instances":[' + I + ']}}', 'n0 promises n1 ballot 1.1 and sends 1 log entry it holds beyond the trimmed prefix (phase 1: promise).'],
    ['{"type":"send","msg":{"type":"prepare_response","from":0,"to":1,"channel_id":3,"ok":false,"ballot":514,"instances":[]}}', "n0 refuses n1's prepare: it has already promised ballot 2.2."],
    ['{"type":"send","msg":{"type":"accept_request","from":1,"to":0,"channel_id":4,"instance":' + I + '}}', 'n1 asks n0 to accept “put k v w” at index 3, ballot 1.1 (phase 2: accept).'],
    ['{"type":"send","msg":{"type":"accept_response","from":0,"to":1,"channel_id":4,"ok":true,"ballot":257}}', 'n0 tells n1 it accepted (ballot 1.1; phase 2: accepted).'],
    ['{"type":"send","msg":{"type":"accept_response","from":0,"to":1,"channel_id":4,"ok":false,"ballot":514}}', "n0 rejects n1's accept: it follows the newer ballot 2.2."],
    ['{"type":"send","msg":{"type":"commit_request","from":1,"to":0,"channel_id":5,"ballot":257,"last_executed":4,"global_last_executed":2}}', 'n1, the leader, sends its heartbeat to n0 (commit phase): it has executed up to index 4, and everyone has executed up to 2.'],
    ['{"type":"send","msg":{"type":"commit_response","from":0,"to":1,"channel_id":5,"ok":true,"ballot":257,"last_executed":4}}', 'n0 answers the heartbeat: it has executed up to index 4.'],
    ['{"type":"send","msg":{"type":"commit_response","from":2,"to":1,"channel_id":0,"ok":true,"ballot":257,"last_executed":7}}', 'n2 saw a gap in its log and asks n1 for the missing entries: it has executed up to index 7.'],
    ['{"type":"send","msg":{"type":"commit_response","from":0,"to":1,"channel_id":5,"ok":false,"ballot":514,"last_executed":0}}', "n0 rejects n1's heartbeat: it follows the newer ballot 2.2."],
    ['{"type":"reply","client_id":7,"request_id":1,"result":"ok","value":"v"}', 'n2 answers the client: ok, the value is “v”.'],
    ['{"type":"reply","client_id":7,"request_id":1,"result":"ok","value":""}', 'n2 answers the client: ok.'],
    ['{"type":"reply","client_id":7,"request_id":1,"result":"not_found"}', 'n2 answers the client: key not found.'],
    ['{"type":"reply","client_id":7,"request_id":1,"result":"retry"}', 'n2 answers the client: retry (no leader yet, or too busy).'],
    ['{"type":"reply","client_id":7,"request_id":1,"result":"leader_is","leader":2}', 'n2 answers the client: ask n2, the leader.'],
    ['{"type":"reply","client_id":7,"request_id":1,"result":"bad_command"}', 'n2 answers the client: bad command.'],
    ['{"type":"set_timer","timer":"election","delay_us":262144}', "n2 will stand for election in 262.1 ms unless a leader's heartbeat arrives first."],
    ['{"type":"set_timer","timer":"commit","delay_us":150000}', 'n2 will send its next heartbeat in 150 ms.'],
    ['{"type":"cancel_timer","timer":"commit"}', 'n2 stops its heartbeat timer.'],
    ['{"type":"cancel_timer","timer":"election"}', 'n2 stops its election timer.'],
    ['{"type":"error","error":"bad_event"}', 'n2 rejects the event as malformed (bad event).'],
  ];
  for (const [line, sentence] of cases) {
    it(line.slice(0, 60), () => expect(explainEffect(line.includes('"type":"send"') ? 9 : 2, line)).toBe(sentence));
  }
});

describe('explainEffect: every trace kind', () => {
  const cases: [string, string][] = [
    ['{"type":"trace","kind":"follower","ballot":257,"leader":1}', 'n0 now follows ballot 1.1: n1 leads.'],
    ['{"type":"trace","kind":"leader","ballot":257,"last_index":4}', 'n0 has promises from a majority and becomes leader with ballot 1.1 (its log reaches index 4).'],
    ['{"type":"trace","kind":"election","ballot":257}', 'n0 stands for election with ballot 1.1.'],
    ['{"type":"trace","kind":"election_abandoned","ballot":257}', 'n0 abandons its election for ballot 1.1.'],
    ['{"type":"trace","kind":"step_down","ballot":257,"heard":1,"window_us":300000}', 'n0 steps down: heard no majority for 300 ms (only 1 of its cluster, itself included, answered); it stops its heartbeats so the others can elect a leader.'],
    ['{"type":"trace","kind":"repair","peer":0,"from_index":3,"to_index":4}', 'n0 re-sends indexes 3–4 to n0, which could not execute them (a lost message or an entry from an older ballot).'],
    ['{"type":"trace","kind":"fill","count":2,"from_index":5,"to_index":7}', 'n0 finds 2 indexes (5–7) that no promise holds; nothing can have been chosen there, so it proposes a no-op in each and execution can pass.'],
    ['{"type":"trace","kind":"follower","ballot":271,"leader":15}', 'n0 now holds ballot 1.-, which names no leader.'],
    ['{"type":"trace","kind":"replay","count":3,"from_index":2,"to_index":4}', 'n0 re-proposes 3 entries (indexes 2–4) under its own ballot, so every follower ends with the same log.'],
    ['{"type":"trace","kind":"instance","index":3,"ballot":257,"state":"committed"}', "n0's log: index 3 is committed at ballot 1.1."],
    ['{"type":"trace","kind":"execute","index":3,"result":"not_found"}', 'n0 applies index 3 to its key-value store (key not found).'],
    ['{"type":"trace","kind":"stale","index":2,"ballot":256}', "n0 finds index 2 written under an older ballot 1.0; it waits for the new leader's replay."],
    ['{"type":"trace","kind":"accept_timeout","index":5,"ballot":257}', 'n0 got no majority for index 5 within three heartbeats; it proposes it again.'],
    ['{"type":"trace","kind":"trim","global_last_executed":2}', 'n0 drops its log up to index 2: every node has executed those entries.'],
    ['{"type":"trace","kind":"commit_gle","value":2}', 'n0 learns that every node has executed up to index 2.'],
    ['{"type":"trace","kind":"violation","index":5,"reason":"command_mismatch"}', 'SAFETY VIOLATION at n0, index 5: command mismatch. Two different commands were chosen for one slot.'],
  ];
  for (const [line, sentence] of cases) it(line.slice(28, 60), () => expect(explainEffect(0, line)).toBe(sentence));
});

describe('explainEvent and explainEntry', () => {
  it('names every event kind', () => {
    expect(explainEvent(1, '{"type":"start"}')).toBe('n1 starts with an empty log.');
    expect(explainEvent(1, '{"type":"timer","timer":"election"}')).toContain('election timer goes off');
    expect(explainEvent(1, '{"type":"timer","timer":"commit"}')).toBe("n1's heartbeat timer goes off.");
    expect(explainEvent(1, '{"type":"client","client_id":1,"request_id":1,"line":"get k"}')).toBe('A client sends “get k” to n1.');
    expect(explainEvent(0, '{"type":"message","msg":{"type":"prepare_request","from":1,"to":0,"channel_id":1,"ballot":257}}')).toBe('n0 receives prepare 1.1 from n1.');
  });
  it('keeps the effects in the order the core emitted them', () => {
    const e = explainEntry({
      step: 4,
      node: 1,
      event: '{"type":"timer","timer":"election"}',
      effects: '{"type":"trace","kind":"election","ballot":257}\n{"type":"set_timer","timer":"election","delay_us":1000}\n',
      notes: ['timer election of n1 fired'],
    });
    expect(e.details).toEqual(['n1 stands for election with ballot 1.1.', "n1 will stand for election in 1 ms unless a leader's heartbeat arrives first."]);
    expect(e.notes).toEqual(['election timer of n1 fired']);
    expect(e.headline).toBe("n1's election timer goes off. No heartbeat from a leader arrived in time, so it stands for election.");
  });
  it('reads a simulator action that fed no event (a crash) from its notes', () => {
    expect(explainEntry({ step: 9, node: 2, event: '', effects: '', notes: ['n2 crashed'] })).toEqual({ step: 9, node: 2, headline: '', details: [], notes: ['n2 crashed'] });
  });
  it('an election timer that finds a recent heartbeat says so, not that none arrived', () => {
    const e = explainEntry({
      step: 12,
      node: 2,
      event: '{"type":"timer","timer":"election"}',
      effects: '{"type":"set_timer","timer":"election","delay_us":262144}\n',
      notes: ['timer election of n2 fired'],
    });
    expect(e.headline).toBe("n2's election timer goes off. A leader’s heartbeat arrived since it was armed, so it stays a follower and arms the timer again.");
    expect(e.headline).not.toMatch(/no heartbeat/i);
  });
  it('pending items are never due in a negative time', () => {
    expect(dueText(1_000_000, 1_000_100)).toBe('due now');
    expect(dueText(1_000_000, 1_000_000)).toBe('due now');
    expect(dueText(1_002_500, 1_000_000)).toBe('due in 2.5 ms');
  });
  it('one name for the heartbeat: the commit timer and commit messages read as heartbeat', () => {
    expect(timerName('commit')).toBe('heartbeat');
    expect(timerName('election')).toBe('election');
    expect(messageLabel({ type: 'commit_request', from: 0, to: 1, ballot: 256, last_executed: 3, global_last_executed: 1 }).text).toBe('heartbeat ≤3 1.0');
  });
  it('no internal names in the notes people read', () => {
    expect(humanNote('m16 0->1 accept_request delivered')).toBe('m16 n0 → n1 accept delivered');
    expect(humanNote('m7 2->0 commit_response lost (link 2->0 is cut)')).toBe('m7 n2 → n0 heartbeat answer lost (link n2 → n0 is cut)');
    expect(humanNote('link 2->1 cut')).toBe('link n2 → n1 cut');
    expect(humanNote('timer commit of n0 fired')).toBe('heartbeat timer of n0 fired');
    for (const n of ['m1 0->1 prepare_request delivered', 'm2 1->0 prepare_response dropped', 'm3 0->2 commit_request delivered']) {
      expect(humanNote(n)).not.toMatch(/_|->/);
    }
  });
  it('labels links by kind, ballot and index', () => {
    expect(messageLabel({ type: 'accept_request', from: 1, to: 0, instance: JSON.parse(I) })).toEqual({ kind: 'accept', text: 'accept #3 1.1' });
  });
});

describe('every effect the engines emit in the shared transcripts', () => {
  // The files show effects in their readable form; canonicalLines gives back the exact bytes.
  const lines = readdirSync(TESTDATA)
    .filter((f) => f.endsWith('.txt'))
    .flatMap((f) => canonicalLines(readFileSync(join(TESTDATA, f), 'utf8'), f))
    .map((l) => /^n(\d+): (\{"type":.*\})( m\d+| lost.*)?$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null);
  it('reads as a sentence with no gaps', () => {
    expect(lines.length).toBeGreaterThan(1000);
    for (const m of lines) {
      const s = explainEffect(Number(m[1]), m[2]!);
      expect(s, m[2]).not.toMatch(/undefined|NaN|does not know|records “/);
    }
  });
});

describe('durability and state transfer in words', () => {
  it('a persist batch names what it writes and that the node holds its sends until the disk confirms', () => {
    const s = explainEffect(1, '{"type":"persist","persist_id":3,"records":[{"kind":"promise","ballot":257},{"kind":"instance","instance":{}},{"kind":"instance","instance":{}}]}');
    expect(s).toBe('n1 asks its disk to write its promise and 2 log entries (write 3); until the disk confirms, n1 sends and answers nothing.');
  });
  it('a restart, a confirmed write and a snapshot read as sentences', () => {
    expect(explainEffect(0, '{"type":"persist","persist_id":4,"records":[{"kind":"checkpoint","ballot":257,"last_executed":2,"kv":[]},{"kind":"instance","instance":{}}]}')).toContain(
      'a checkpoint (its ballot and key-value store, after which the disk may drop every earlier record) and 1 log entry',
    );
    expect(explainEvent(0, '{"type":"restart","records":[]}')).toBe('n0 restarts with an empty disk: it remembers no promise and no log.');
    expect(explainEvent(0, '{"type":"persisted","persist_id":2}')).toContain('confirms write 2');
    expect(explainEffect(1, '{"type":"send","msg":{"type":"snapshot","from":1,"to":0,"ballot":257,"last_executed":2,"kv":[["a","1"]]}}')).toContain('a snapshot of its key-value store (1 key, executed up to index 2)');
  });
});
