import { describe, expect, it } from 'vitest';
import { drawScenario } from './scenario.ts';
import { formatReplaySpec, labReplayUrl, parseReplaySpec, replayCommand, replayScenario, ReplaySpecError, seedScenario } from './replay-spec.ts';

describe('replay spec (the lab address of a torture run)', () => {
  it('round-trips every part and rebuilds the scenario --replay rebuilds', () => {
    const text = 'all:7;keep=0,2;ops=4;amnesia;check-quorum;repair=256;election=256';
    const r = parseReplaySpec(text);
    expect(r).toEqual({ engine: 'all', seed: 7, keep_faults: [0, 2], ops: 4, amnesia: true, durability: null, check_quorum: true, repair: 256, election: 256 });
    const durable = parseReplaySpec('cpp:9;durability=log');
    expect(formatReplaySpec(durable)).toBe('cpp:9;durability=log');
    expect(replayScenario(durable)).toEqual(drawScenario(9, { engine: 'cpp', amnesia: false, durability: 'log', checkQuorum: false, repairBatch: 0, electionBatch: 0 }));
    expect(formatReplaySpec(r)).toBe(text);
    const plain = parseReplaySpec('go:12');
    expect(replayScenario(plain)).toEqual(drawScenario(12, { engine: 'go', amnesia: false, checkQuorum: false, repairBatch: 0, electionBatch: 0 }));
    const full = drawScenario(7, { engine: 'all', amnesia: true, checkQuorum: true, repairBatch: 256, electionBatch: 256 });
    const s = replayScenario(r);
    expect(s.faults).toEqual([full.faults[0], full.faults[2]]);
    expect(s.ops_per_client).toBe(Math.min(4, full.ops_per_client));
    expect(labReplayUrl(plain)).toBe('http://127.0.0.1:4173/?view=cluster&c.torture=go%3A12');
    // crashes as real restarts from the write-ahead records (npm run torture --durability log)
    const durable173 = parseReplaySpec('rust:173;durability=log');
    expect(durable173.durability).toBe('log');
    expect(formatReplaySpec(durable173)).toBe('rust:173;durability=log');
    expect(replayScenario(durable173)).toEqual(drawScenario(173, { engine: 'rust', durability: 'log' }));
    expect(replayScenario(parseReplaySpec('rust:173;durability=none')).faults).toEqual(drawScenario(173, { engine: 'rust', durability: 'none' }).faults);
    // checkpoints (npm run torture --checkpoints): the drawn snapshot_every comes back too
    const checkpointed = parseReplaySpec('cpp:306;durability=log;repair=256;election=256;checkpoints');
    expect(formatReplaySpec(checkpointed)).toBe('cpp:306;durability=log;repair=256;election=256;checkpoints');
    expect(replayScenario(checkpointed)).toEqual(drawScenario(306, { engine: 'cpp', durability: 'log', repairBatch: 256, electionBatch: 256, checkpoints: true }));
    expect(replayScenario(checkpointed).snapshot_every).toBeGreaterThan(0);
  });

  // Before stop 38 the line had no place for these: the printed lab address of a
  // `--log-bound`/`--mitigation blade` run opened a different run from the one that failed
  it('carries the log bound and the GC mitigation, so the lab opens the run the CLI made', () => {
    const text = 'rust:3;repair=256;election=256;log-bound=64;mitigation=blade';
    const r = parseReplaySpec(text);
    expect(r.log_bound).toBe(64);
    expect(r.mitigation).toBe('blade');
    expect(formatReplaySpec(r)).toBe(text);
    expect(replayScenario(r)).toEqual(drawScenario(3, { engine: 'rust', repairBatch: 256, electionBatch: 256, logBound: 64, mitigation: 'blade' }));
    expect(replayScenario(r).log_bound).toBe(64);
    expect(replayScenario(r).mitigation).toBe('blade');
    expect(replayCommand(r)).toBe('npm run torture -- --engine rust --replay 3 --repair 256 --election 256 --log-bound 64 --mitigation blade');
    expect(labReplayUrl(r)).toBe(`http://127.0.0.1:4173/?view=cluster&c.torture=${encodeURIComponent(text)}`);
    expect(() => parseReplaySpec('rust:3;log-bound=64')).toThrow('log-bound needs repair=… and election=…');
    expect(() => parseReplaySpec('rust:3;repair=1;election=1;log-bound=x')).toThrow(ReplaySpecError);
    expect(() => parseReplaySpec('rust:3;mitigation=mitmem')).toThrow('mitigation is blade: "mitmem"');
    expect(() => parseReplaySpec('rust:3;mitigation')).toThrow('"mitigation" needs a value');
  });

  it('names the command line that replays the same run', () => {
    expect(replayCommand(parseReplaySpec('rust:275;durability=none'))).toBe('npm run torture -- --engine rust --replay 275 --durability none');
    expect(replayCommand(parseReplaySpec('all:7;keep=;ops=4;amnesia;check-quorum;repair=256;election=256'))).toBe(
      'npm run torture -- --engine all --replay 7 --keep-faults "" --ops 4 --amnesia --check-quorum --repair 256 --election 256',
    );
    expect(replayCommand(parseReplaySpec('cpp:306;durability=log;repair=256;election=256;checkpoints'))).toBe(
      'npm run torture -- --engine cpp --replay 306 --durability log --repair 256 --election 256 --checkpoints',
    );
    // the CLI's --replay path and the lab's line build the run in one place
    expect(replayScenario(parseReplaySpec('go:12;keep=0;ops=3'))).toEqual(seedScenario(12, { engine: 'go', amnesia: false, checkQuorum: false, repairBatch: 0, electionBatch: 0 }, [0], 3));
    expect(() => seedScenario(12, { engine: 'go' }, [99], null)).toThrow(RangeError);
  });

  it('a bad line says what is wrong', () => {
    const bad: [string, RegExp][] = [
      ['', /starts with ENGINE:SEED/],
      ['cobol:1', /unknown engine "cobol"/],
      ['go:x', /starts with ENGINE:SEED/],
      ['go:1;keep=a', /a kept fault must be an integer/],
      ['go:1;ops', /"ops" needs a value/],
      ['go:1;fast', /unknown part "fast"/],
      ['go:1;keep=99', /no fault #99/],
      ['go:1;durability=disk', /durability is none or log/],
    ];
    for (const [text, why] of bad) {
      expect(() => replayScenario(parseReplaySpec(text)), text).toThrow(ReplaySpecError);
      expect(() => replayScenario(parseReplaySpec(text)), text).toThrow(why);
    }
  });
});
