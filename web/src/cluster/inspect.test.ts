import { describe, expect, it } from 'vitest';
import { logRows, readInspect, trimmedText } from './inspect.ts';

// An inspect view as the engines print it (the example of docs/protocol.md, "Inspect").
const VIEW =
  '{"id":0,"num_peers":3,"role":"follower","ballot":257,"leader":1,"commit_received":true,"last_index":4,"last_executed":4,"global_last_executed":2,' +
  '"log":[{"ballot":257,"index":3,"client_id":7,"request_id":1,"state":"executed","command":{"type":"put","key":"a","value":"1"}},' +
  '{"ballot":257,"index":4,"client_id":7,"request_id":2,"state":"executed","command":{"type":"del","key":"b"}}],' +
  '"kv":{"size":1,"digest":"0f3a000000000000","entries":[["a","1"]]},"prepare":null,"accepts":[],"replay_remaining":0,"commit_round":null,"commit_gle":2,' +
  '"counters":{"events":12}}';

describe('inspect view', () => {
  it('reads the log as rows with ballots as round.leader and the markers', () => {
    const v = readInspect(VIEW)!;
    expect(logRows(v)).toEqual([
      { index: 3, ballot: '1.1', command: 'put a 1', state: 'executed', markers: [] },
      { index: 4, ballot: '1.1', command: 'del b', state: 'executed', markers: ['last executed', 'last index'] },
    ]);
    expect(trimmedText(v)).toBe('1–2 trimmed (executed everywhere)');
  });
  it('reads a node that is down as null', () => {
    expect(readInspect('null')).toBeNull();
  });
});
