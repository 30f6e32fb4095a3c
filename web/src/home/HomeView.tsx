// The root address: what the lab is, three ways in, and every view. A returning student sees
// where they stopped (read from this browser's storage; no lesson is loaded for that).
import type { ViewProps } from '../app/view-props.ts';
import { useReady } from '../app/ready.ts';
import { VIEWS } from '../state/views.ts';
import { encodeState } from '../state/url-state.ts';
import { loadProgress } from '../learn/progress.ts';
import type { AppState } from '../state/app-state.ts';

/** The first lesson of the GC and cost track (docs/lessons.md lists both tracks). */
export const GC_TRACK_FIRST_LESSON = 9;

export default function HomeView({ state, update }: ViewProps) {
  const progress = loadProgress();
  useReady('home', true);
  const go = (change: (s: AppState) => AppState) => (e: React.MouseEvent) => {
    e.preventDefault();
    update(change);
  };
  const href = (s: AppState) => `?${encodeState(s)}`;
  const lesson = (n: number, step = 1) => (s: AppState): AppState => ({ ...s, view: 'learn', learn: { ...s.learn, lesson: n, step } });
  const race = (s: AppState): AppState => ({ ...s, view: 'race', presenter: true });
  const last = progress.last;
  return (
    <div className="home-view">
      <h1>Replicant Lab</h1>
      <p className="lede">
        One replicated key-value store written four times — C++, Rust, Go and Java — running live in your browser, to see what garbage collection
        costs a system that must answer fast.
      </p>
      {last && (
        <p className="resume" data-testid="resume">
          You stopped at lesson {last.lesson}, <em>{last.title}</em>, step {last.step} of {last.steps}.{' '}
          <a href={href(lesson(last.lesson, last.step)(state))} onClick={go(lesson(last.lesson, last.step))} data-testid="resume-link">
            Continue where you stopped
          </a>
        </p>
      )}
      <div className="doors">
        <a className="door" href={href(lesson(1)(state))} onClick={go(lesson(1))} data-testid="door-learn">
          <strong>Learn MultiPaxos</strong>
          <span>Eight short lessons on the real engines: one slot, a leader, elections, logs, failures. Start with lesson 1.</span>
        </a>
        <a className="door" href={href(lesson(GC_TRACK_FIRST_LESSON)(state))} onClick={go(lesson(GC_TRACK_FIRST_LESSON))} data-testid="door-gc">
          <strong>What does GC cost my service?</strong>
          <span>Tail latency, coordinated omission, the memory cliff, fewer vCPUs, and what it costs in the cloud.</span>
        </a>
        <a className="door" href={href(race(state))} onClick={go(race)} data-testid="door-present">
          <strong>Present the paper</strong>
          <span>The Race of the four languages, in presenter mode, ready for a projector.</span>
        </a>
      </div>
      <h2>Every view</h2>
      <ul className="view-links">
        {VIEWS.map((v) => (
          <li key={v.id}>
            <a href={href({ ...state, view: v.id })} onClick={go((s) => ({ ...s, view: v.id }))} data-testid={`home-link-${v.id}`}>
              {v.label}
            </a>{' '}
            — {v.audience}
          </li>
        ))}
      </ul>
    </div>
  );
}
