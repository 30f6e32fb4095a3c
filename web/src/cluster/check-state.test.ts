import { describe, expect, it } from 'vitest';
import type { Verdict } from '@replicant/checker/lincheck';
import { advance, checkLimitS, CHECK_LIMIT_DEFAULT_S, elapsedS, type CheckEvent, type CheckState } from './check-state.ts';
import type { SessionHistory } from './history.ts';

const history: SessionHistory = {
  ops: [
    { client: 1, op: 'put', key: 'a', value: '1', call_us: 0, return_us: 10, result: 'ok' },
    { client: 2, op: 'get', key: 'b', call_us: 20, return_us: 30, result: 'not_found' },
    { client: 3, op: 'get', key: 'a', value: '1', call_us: 40, return_us: 50, result: 'ok' },
  ],
  steps: [3, 5, 7],
  rejected: 0,
};

const verdict: Verdict = {
  verdict: 'linearizable',
  operations: 3,
  checked: 3,
  dropped_reads: 0,
  unknown_writes: 0,
  unread_unknown_puts: 0,
  left_out_unknown_writes: 0,
  values_only: false,
  keys: 2,
  violating_keys: [],
  suspect_operations: [],
};

/** Runs events from idle, collecting every effect. */
function run(events: CheckEvent[], from: CheckState = { state: 'idle' }) {
  let state = from;
  const effects: string[] = [];
  for (const e of events) {
    const next = advance(state, e);
    state = next.state;
    for (const f of next.effects) effects.push(f.kind === 'send' ? `send ${f.id}` : f.kind);
  }
  return { state, effects };
}

describe('a linearizability check', () => {
  it('goes idle → checking → done, sending the history it read', () => {
    const { state, effects } = run([
      { type: 'start', id: 1, now_ms: 1000, limit_s: 30 },
      { type: 'history', id: 1, history, at_step: 9 },
      { type: 'tick', now_ms: 2000 },
      { type: 'verdict', id: 1, verdict, html: '<html>' },
    ]);
    expect(effects).toEqual(['send 1']);
    expect(state).toMatchObject({ state: 'done', verdict, html: '<html>', checked: { at_step: 9, operations: 3, keys: 2 } });
  });

  it('is undecided once its limit has passed, and the worker is ended; not a millisecond before', () => {
    const started = run([
      { type: 'start', id: 1, now_ms: 1000, limit_s: 2 },
      { type: 'history', id: 1, history, at_step: 9 },
    ]);
    const before = run([{ type: 'tick', now_ms: 2999 }], started.state);
    expect(before.state.state).toBe('checking');
    expect(before.effects).toEqual([]);
    const after = run([{ type: 'tick', now_ms: 3000 }], before.state);
    expect(after.effects).toEqual(['terminate-worker']);
    expect(after.state).toMatchObject({ state: 'undecided', why: 'time-limit', after_ms: 2000, limit_s: 2, checked: { operations: 3, keys: 2 } });
  });

  it('is undecided when stopped, and the worker is ended', () => {
    const { state, effects } = run([
      { type: 'start', id: 1, now_ms: 0, limit_s: 30 },
      { type: 'history', id: 1, history, at_step: 9 },
      { type: 'stop', now_ms: 4500 },
    ]);
    expect(effects).toEqual(['send 1', 'terminate-worker']);
    expect(state).toMatchObject({ state: 'undecided', why: 'stopped', after_ms: 4500, checked: { operations: 3 } });
  });

  it('ignores a verdict from a worker it ended, and a history read for an earlier check', () => {
    const timedOut = run([
      { type: 'start', id: 1, now_ms: 0, limit_s: 1 },
      { type: 'history', id: 1, history, at_step: 9 },
      { type: 'tick', now_ms: 1000 },
      { type: 'verdict', id: 1, verdict, html: undefined },
    ]);
    expect(timedOut.state.state).toBe('undecided');
    const second = run([{ type: 'start', id: 2, now_ms: 5000, limit_s: 1 }, { type: 'verdict', id: 1, verdict, html: undefined }, { type: 'history', id: 1, history, at_step: 4 }], timedOut.state);
    expect(second.effects).toEqual([]);
    expect(second.state).toEqual({ state: 'checking', id: 2, started_ms: 5000, limit_s: 1 });
  });

  it('checks again after a time-out, on a limit of its own', () => {
    const { state, effects } = run([
      { type: 'start', id: 1, now_ms: 0, limit_s: 1 },
      { type: 'history', id: 1, history, at_step: 9 },
      { type: 'tick', now_ms: 1500 },
      { type: 'start', id: 2, now_ms: 10_000, limit_s: 1 },
      { type: 'history', id: 2, history, at_step: 9 },
      { type: 'tick', now_ms: 10_900 },
      { type: 'verdict', id: 2, verdict, html: undefined },
    ]);
    expect(effects).toEqual(['send 1', 'terminate-worker', 'send 2']);
    expect(state.state).toBe('done');
  });

  it('can be stopped, or time out, while the history is still being read', () => {
    const { state, effects } = run([
      { type: 'start', id: 1, now_ms: 0, limit_s: 30 },
      { type: 'stop', now_ms: 100 },
      { type: 'history', id: 1, history, at_step: 9 },
    ]);
    expect(effects).toEqual(['terminate-worker']);
    expect(state).toEqual({ state: 'undecided', why: 'stopped', after_ms: 100, limit_s: 30 });
  });

  it('fails with the message of a history that could not be read, or a worker that broke (ended too)', () => {
    expect(run([{ type: 'start', id: 1, now_ms: 0, limit_s: 30 }, { type: 'history-failed', id: 1, message: 'no session' }]).state).toEqual({ state: 'failed', message: 'no session' });
    const broken = run([
      { type: 'start', id: 1, now_ms: 0, limit_s: 30 },
      { type: 'history', id: 1, history, at_step: 9 },
      { type: 'worker-failed', id: 1, message: 'the checker worker failed to load' },
    ]);
    expect(broken.state).toEqual({ state: 'failed', message: 'the checker worker failed to load' });
    expect(broken.effects).toEqual(['send 1', 'terminate-worker']);
  });

  it('fails when refused (a bad time limit), but not while a check runs', () => {
    expect(run([{ type: 'refused', message: 'bad limit' }]).state).toEqual({ state: 'failed', message: 'bad limit' });
    const checking = run([{ type: 'start', id: 1, now_ms: 0, limit_s: 30 }]).state;
    expect(run([{ type: 'refused', message: 'bad limit' }], checking).state).toBe(checking);
  });

  it('ignores a second start while checking, and ticks, stops and replies when not checking', () => {
    const checking = run([{ type: 'start', id: 1, now_ms: 0, limit_s: 30 }]).state;
    expect(run([{ type: 'start', id: 2, now_ms: 50, limit_s: 30 }], checking).state).toBe(checking);
    for (const e of [{ type: 'tick', now_ms: 1e9 }, { type: 'stop', now_ms: 1e9 }, { type: 'verdict', id: 1, verdict, html: undefined }] as CheckEvent[])
      expect(run([e])).toEqual({ state: { state: 'idle' }, effects: [] });
  });

  it('shows the seconds elapsed while checking', () => {
    const checking = run([{ type: 'start', id: 1, now_ms: 1000, limit_s: 30 }]).state;
    expect(elapsedS(checking, 3500)).toBe(2.5);
    expect(elapsedS({ state: 'idle' }, 3500)).toBe(0);
  });
});

describe('the time limit', () => {
  it('is the default unless a test sets the hook', () => {
    expect(checkLimitS(undefined)).toBe(CHECK_LIMIT_DEFAULT_S);
    expect(checkLimitS(2)).toBe(2);
    expect(checkLimitS(0.5)).toBe(0.5);
  });

  it('refuses a hook value that is not a number of seconds in (0, 3600]', () => {
    for (const bad of [0, -1, NaN, Infinity, 3601, '2', null, {}]) expect(() => checkLimitS(bad)).toThrow(/__replicantCheckLimitS must be a number of seconds/);
  });
});
