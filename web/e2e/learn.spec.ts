// The home page and the lessons, played end to end through the UI in Chromium: every step's
// checkpoints hold on the live engines (all four side by side for the protocol lessons, and
// byte-identical), every exercise is completed by the student's route (the "show me" actions
// performed with the Cluster controls) and by "show me", every question is answered wrong and
// then right, with an explanation each time. Steps are moved by keyboard. Waits on state only.
import { expect, test, type Page } from '@playwright/test';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, openView, screenshot } from './helpers.ts';

interface Action {
  do: string;
  node?: number | 'leader';
  from?: number;
  to?: number;
  type?: string;
  all?: boolean;
  timer?: string;
  line?: string;
  count?: number;
  engine?: string;
  ratio?: number;
  vcpus?: number;
  target_ops_per_s?: number;
  mitigation?: string;
  settings?: Record<string, string>;
}
interface Scenario {
  number: number;
  track: string;
  view: string;
  steps: { section: string; actions?: Action[]; exercise?: { show_me: Action[] }; question?: { kind: 'choice' | 'number'; options?: { correct: boolean }[] } }[];
}

const LESSONS_DIR = join(REPO, 'lessons');
const SCENARIOS: Scenario[] = readdirSync(LESSONS_DIR)
  .filter((f) => /^\d{2}-/.test(f))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(LESSONS_DIR, f, 'scenario.json'), 'utf8')) as Scenario);

/** The lesson's text is interactive first; its live state (engines, checkpoints) follows. */
async function liveStep(page: Page): Promise<void> {
  await expect(page.locator('.learn-view')).toHaveAttribute('data-live', 'ready', { timeout: 60_000 });
}

async function allChecksHold(page: Page): Promise<void> {
  await liveStep(page);
  const checks = page.locator('.lesson-main > [role=status] [data-testid=checkpoint]');
  // The cost model's answer comes from the Cost view's Python (Pyodide), which takes seconds to start.
  await expect(page.locator('.lesson-main > [role=status] [data-testid=checkpoint][data-ok=false]')).toHaveCount(0, { timeout: 120_000 });
  return void (await checks.count());
}

async function leaderId(page: Page): Promise<number> {
  const id = await page.locator('.lesson-panel [data-role=leader]').first().getAttribute('data-testid');
  if (!id) throw new Error('no leader on screen');
  return Number(id.replace('node-', ''));
}

function pendingItem(page: Page, a: Action) {
  if (a.type === 'client') return page.locator(`[data-testid=pending-list] li[data-kind=client]${a.to !== undefined ? `[data-to="${a.to}"]` : ''}`).first();
  let sel = '[data-testid=pending-list] li[data-kind=message]';
  if (a.type) sel += `[data-type="${a.type}"]`;
  if (a.from !== undefined) sel += `[data-from="${a.from}"]`;
  if (a.to !== undefined) sel += `[data-to="${a.to}"]`;
  return page.locator(sel).first();
}

/** Performs one scenario action the way a student would, with the Cluster controls. */
async function perform(page: Page, a: Action): Promise<void> {
  const panel = page.locator('.lesson-panel');
  const events = async () => Number((await page.getByTestId('learn-time').textContent())!.match(/(\d+) events/)![1]);
  switch (a.do) {
    case 'client': {
      const node = a.node === 'leader' ? await leaderId(page) : a.node!;
      await page.getByTestId('client-node').selectOption(String(node));
      await page.getByTestId('client-line').fill(a.line!);
      const before = await panel.locator('[data-testid=pending-list] li[data-kind=client]').count();
      await page.getByTestId('client-send').click();
      await expect(panel.locator('[data-testid=pending-list] li[data-kind=client]')).toHaveCount(before + 1);
      return;
    }
    case 'deliver':
    case 'drop': {
      for (let k = 0; ; k++) {
        const item = pendingItem(page, a);
        if ((await item.count()) === 0) {
          if (k === 0) throw new Error(`nothing pending to ${a.do}: ${JSON.stringify(a)}`);
          break;
        }
        const text = await item.textContent();
        await item.getByRole('button', { name: a.do, exact: true }).click();
        await expect(panel.locator('[data-testid=pending-list] li').filter({ hasText: text! })).toHaveCount(0);
        if (!a.all) break;
      }
      return;
    }
    case 'quiet':
      for (;;) {
        const item = panel.locator('[data-testid=pending-list] li:not([data-kind=timer])').first();
        if ((await item.count()) === 0) return;
        // Each pending item's text starts with its unique id: wait until it is gone (a message
        // to a crashed node is lost without a step, so the event count may not move).
        const text = (await item.textContent())!;
        await item.getByRole('button', { name: 'deliver', exact: true }).click();
        await expect(panel.locator('[data-testid=pending-list] li').filter({ hasText: text })).toHaveCount(0);
      }
    case 'fire': {
      const node = a.node === 'leader' ? await leaderId(page) : a.node!;
      const before = await events();
      await panel.locator(`[data-testid=pending-list] li[data-kind=timer][data-node="${node}"][data-timer="${a.timer}"]`).getByRole('button', { name: 'fire now' }).click();
      await expect.poll(events).toBeGreaterThan(before);
      return;
    }
    case 'elect':
      await perform(page, { do: 'fire', node: a.node, timer: 'election' });
      return perform(page, { do: 'quiet' });
    case 'next':
      for (let k = 0; k < (a.count ?? 1); k++) {
        const before = await events();
        await page.getByTestId('next-event').click();
        await expect.poll(events).toBeGreaterThan(before);
      }
      return;
    case 'crash': {
      const node = a.node === 'leader' ? await leaderId(page) : a.node!;
      await panel.getByTestId(`node-${node}`).getByRole('button', { name: 'Crash' }).click();
      await expect(panel.getByTestId(`node-${node}`)).toHaveAttribute('data-role', 'down');
      return;
    }
    case 'restart':
      await panel.getByTestId(`node-${a.node}`).getByRole('button', { name: 'Restart' }).click();
      await expect(panel.getByTestId(`node-${a.node}`)).not.toHaveAttribute('data-role', 'down');
      return;
    case 'cut':
      await panel.getByRole('button', { name: `cut the link from n${a.from} to n${a.to}` }).click();
      return;
    case 'isolate': {
      const node = a.node === 'leader' ? await leaderId(page) : a.node!;
      await panel.getByRole('button', { name: `Isolate n${node}` }).click();
      return;
    }
    case 'heal':
      await panel.getByRole('button', { name: 'Heal all links' }).click();
      return;
    case 'simulate': {
      // The experiment's knobs, then its button; the run is done when its status names these settings.
      const box = page.getByTestId('experiment');
      for (const knob of ['engine', 'ratio', 'vcpus', 'target_ops_per_s', 'mitigation'] as const) {
        if (a[knob] !== undefined) await box.getByTestId(`experiment-${knob}`).selectOption(String(a[knob]));
      }
      await box.getByTestId('experiment-run').click();
      const status = box.getByTestId('experiment-status');
      const label: Record<string, string> = { cpp: 'C\\+\\+', rust: 'Rust', go: 'Go', java: 'Java' };
      const mitigation: Record<string, string> = { none: 'offered$', blade: ', BLADE$', mitmem: ', MITMEM$', both: ', BLADE and MITMEM$' };
      const wanted = [
        a.engine !== undefined ? `^${label[a.engine]},` : '',
        a.ratio !== undefined ? `memory:data ${String(a.ratio).replace('.', '\\.')},` : '',
        a.vcpus !== undefined ? ` ${a.vcpus} vCPUs` : '',
        a.mitigation !== undefined ? mitigation[a.mitigation]! : '',
      ];
      // This run's settings first (a previous run's "done" must not count), then its end.
      for (const v of wanted) if (v) await expect(status).toHaveAttribute('data-settings', new RegExp(v));
      await expect(status).toHaveAttribute('data-state', 'done', { timeout: 180_000 });
      await expect(box.getByTestId('experiment-reading')).toContainText('Simulated (model card');
      return;
    }
    case 'cost': {
      // The Cost view's own knobs, beside the lesson; its cost model answers for them.
      const view = page.getByTestId('embedded-view');
      for (const [key, value] of Object.entries(a.settings!)) {
        const control = view.locator(`[data-knob="${key}"]`).locator('select, input').first();
        if ((await control.evaluate((e) => e.tagName)) === 'SELECT') await control.selectOption(value);
        else await control.fill(value);
        await expect(control).toHaveValue(value);
      }
      return;
    }
    default:
      throw new Error(`no UI route for the action ${a.do}`);
  }
}

async function answer(page: Page, q: NonNullable<Scenario['steps'][number]['question']>): Promise<void> {
  const box = page.getByTestId('question');
  const explanation = box.getByTestId('answer-explanation');
  if (q.kind === 'choice') {
    const wrong = q.options!.findIndex((o) => !o.correct);
    if (wrong >= 0) {
      await box.getByTestId('answer-option').nth(wrong).click();
      await expect(explanation).toHaveAttribute('data-correct', 'false');
      await expect(explanation).not.toBeEmpty();
    }
    await box.getByTestId('answer-option').nth(q.options!.findIndex((o) => o.correct)).click();
    await expect(explanation).toHaveAttribute('data-correct', 'true');
    return;
  }
  await box.getByTestId('answer-number').fill('-123456');
  await box.getByTestId('answer-check').click();
  await expect(explanation).toHaveAttribute('data-correct', 'false');
  // Its placeholders are filled from the live state that is there (the cost model's answer too).
  await expect(explanation).not.toContainText('(the cost model is computing)');
  // A wrong answer's explanation gives the right one, read from the live state.
  // (A decimal answer ends the sentence: "The answer is 2.35." — the full stop is not the number's.)
  const right = /The answer is (-?\d+(?:\.\d+)?)/.exec((await explanation.textContent())!)![1]!;
  await box.getByTestId('answer-number').fill(right);
  await box.getByTestId('answer-check').click();
  await expect(explanation).toHaveAttribute('data-correct', 'true');
}

async function playLesson(page: Page, s: Scenario, engine: string): Promise<void> {
  await openView(page, `?view=learn&learn.lesson=${s.number}&learn.engine=${engine}`, 'learn', 60_000);
  for (let i = 0; i < s.steps.length; i++) {
    const step = s.steps[i]!;
    await expect(page.getByTestId('lesson-step-counter')).toHaveAttribute('data-step', String(i + 1));
    await expect(page.getByTestId('step-heading')).toHaveText(step.section);
    await allChecksHold(page);
    if (s.view === 'cluster' && engine === 'all') await expect(page.getByTestId('comparison')).toHaveAttribute('data-identical', 'true');
    if (step.actions?.length) {
      // The step's own actions through the player: "Replay this step" goes back to the step's
      // start and plays them one by one; its checkpoints hold again at the end. (The click's
      // state is drawn before click() returns: the button is disabled until the replay ends.)
      const replay = page.getByTestId('lesson-replay');
      await replay.click();
      await expect(replay).toBeEnabled({ timeout: 120_000 });
      await allChecksHold(page);
      if (engine === 'all') await expect(page.getByTestId('comparison')).toHaveAttribute('data-identical', 'true');
    }
    if (step.exercise) {
      const ex = page.getByTestId('exercise');
      await expect(ex).toHaveAttribute('data-done', 'false');
      await page.getByTestId('hint-button').click();
      await expect(page.getByTestId('hint')).toHaveCount(1);
      for (const a of step.exercise.show_me) await perform(page, a);
      await expect(ex).toHaveAttribute('data-done', 'true', { timeout: 120_000 });
      await expect(ex).toHaveAttribute('data-route', 'student');
      if (engine === 'all') await expect(page.getByTestId('comparison')).toHaveAttribute('data-identical', 'true');
      await page.getByTestId('lesson-reset').click();
      await expect(ex).toHaveAttribute('data-done', 'false');
      await page.getByTestId('show-me').click();
      await expect(ex).toHaveAttribute('data-done', 'true', { timeout: 180_000 });
      await expect(ex).toHaveAttribute('data-route', 'show-me');
    }
    if (step.question) await answer(page, step.question);
    if (i < s.steps.length - 1) {
      // Keyboard only: the focus leaves any control, then → moves on.
      await page.locator('#lesson-title').click();
      await page.keyboard.press('ArrowRight');
    }
  }
  await expect(page).toHaveURL(new RegExp(`learn\\.lesson=${s.number}`));
  await expect(page).toHaveURL(new RegExp(`learn\\.step=${s.steps.length}`));
}

test('the root address is the home page; one click reaches lesson 1', async ({ page }, testInfo) => {
  await openView(page, '', 'home');
  await expect(page.locator('h1')).toHaveText('Replicant Lab');
  for (const door of ['door-learn', 'door-gc', 'door-present']) await expect(page.getByTestId(door)).toBeVisible();
  for (const v of ['cluster', 'lab', 'race', 'paper', 'cost', 'learn']) await expect(page.getByTestId(`home-link-${v}`)).toBeVisible();
  await screenshot(page, testInfo, 'home');
  await page.getByTestId('door-learn').click();
  await expect(page.locator('html[data-ready="learn"]')).toHaveCount(1, { timeout: 60_000 });
  await expect(page.locator('.learn-view')).toHaveAttribute('data-lesson', '1');
  await expect(page.getByTestId('lesson-step-counter')).toHaveAttribute('data-step', '1');
});

test('a returning student sees where they stopped, and the step is in the URL', async ({ page }) => {
  await openView(page, '?view=learn&learn.lesson=1&learn.step=3', 'learn', 60_000);
  await expect(page.getByTestId('lesson-step-counter')).toHaveAttribute('data-step', '3');
  await openView(page, '', 'home');
  await expect(page.getByTestId('resume')).toContainText('lesson 1');
  await expect(page.getByTestId('resume')).toContainText('step 3');
  await page.getByTestId('resume-link').click();
  await expect(page.getByTestId('lesson-step-counter')).toHaveAttribute('data-step', '3');
  await expect(page).toHaveURL(/learn\.step=3/);
});

test('"present the paper" opens the Race in presenter mode; the l key opens Learn', async ({ page }) => {
  await openView(page, '', 'home');
  await page.getByTestId('door-present').click();
  await expect(page.locator('html.presenter')).toHaveCount(1);
  await expect(page.locator('html[data-ready="race"]')).toHaveCount(1, { timeout: 30_000 });
  await page.keyboard.press('Escape');
  await page.keyboard.press('l');
  await expect(page.locator('html[data-ready="learn"]')).toHaveCount(1, { timeout: 60_000 });
});

test('a bad lesson or step in the URL is reported, not a crash', async ({ page }) => {
  await openView(page, '?view=learn&learn.lesson=1&learn.step=abc', 'learn', 60_000);
  await expect(page.locator('[role=alert]').first()).toContainText(/Step/);
  await expect(page.getByTestId('lesson-step-counter')).toHaveAttribute('data-step', '1');
});

for (const s of SCENARIOS) {
  const engine = s.view === 'cluster' ? 'all' : 'go';
  test(`lesson ${s.number} plays end to end${s.view === 'cluster' ? ' on all four engines' : ''}`, async ({ page }) => {
    test.setTimeout(300_000);
    await playLesson(page, s, engine);
  });
}

test('the lesson player works in presenter mode', async ({ page }, testInfo) => {
  await openView(page, '?view=learn&learn.lesson=1&learn.step=5&presenter=1', 'learn', 60_000);
  await expect(page.locator('html.presenter')).toHaveCount(1);
  await allChecksHold(page);
  await screenshot(page, testInfo, 'learn-presenter');
});

test('the engines load and step in a worker: the lesson answers the student while they load', async ({ page }) => {
  // Hold every wasm download until the page has answered the keyboard; then let them through.
  let release!: () => void;
  const held = new Promise<void>((res) => (release = res));
  let asked = 0;
  await page.route('**/*.wasm', async (route) => {
    asked++;
    await held;
    await route.continue();
  });
  await openView(page, '?view=learn&learn.lesson=1&learn.step=1&learn.engine=all', 'learn', 60_000);
  await expect(page.getByRole('status').filter({ hasText: /Loading the (simulator|.* engine)/ })).toBeVisible();
  await expect.poll(() => asked).toBeGreaterThan(0);
  await page.locator('#lesson-title').click();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('lesson-step-counter')).toHaveAttribute('data-step', '2');
  await expect(page.locator('.learn-view')).not.toHaveAttribute('data-live', 'ready');
  release();
  await allChecksHold(page);
  await expect(page.getByTestId('comparison')).toHaveAttribute('data-identical', 'true');
  // None of the engines' runtimes was started on the page itself (Go's and TeaVM's glue
  // install globals where they run).
  expect(await page.evaluate(() => ({ go: typeof (globalThis as { Go?: unknown }).Go, teavm: typeof (globalThis as { TeaVM?: unknown }).TeaVM }))).toEqual({ go: 'undefined', teavm: 'undefined' });
});

test('a lesson is live only once its cluster panel is drawn whole: every node card and the controls', async ({ page }) => {
  // The panel's first draw comes in parts (one task each); data-live waits for the last part.
  await openView(page, '?view=learn&learn.lesson=1&learn.step=1&learn.engine=cpp', 'learn', 60_000);
  await liveStep(page);
  // Read at one instant, in the page: no auto-waiting.
  expect(
    await page.evaluate(() => ({
      cards: document.querySelectorAll('.lesson-panel .nodes [data-testid^="node-"][data-role]').length,
      pending: document.querySelectorAll('.lesson-panel [data-testid=pending-list]').length,
      send: document.querySelectorAll('.lesson-panel [data-testid=client-send]').length,
    })),
  ).toEqual({ cards: 3, pending: 1, send: 1 });
});

test('opening a lesson asks the engine worker for its step once; the next step is one goto', async ({ page }) => {
  // Every request the page posts to a worker, by type.
  await page.addInitScript(() => {
    const post = Worker.prototype.postMessage;
    const seen: string[] = ((window as unknown as { __posted: string[] }).__posted = []);
    Worker.prototype.postMessage = function (this: Worker, m: unknown, ...rest: unknown[]) {
      seen.push(String((m as { type?: unknown })?.type));
      return (post as (...a: unknown[]) => void).call(this, m, ...rest);
    } as typeof Worker.prototype.postMessage;
  });
  const posted = (type: string) => page.evaluate((t) => (window as unknown as { __posted: string[] }).__posted.filter((x) => x === t).length, type);
  await openView(page, '?view=learn&learn.lesson=1&learn.step=2&learn.engine=cpp', 'learn', 60_000);
  await liveStep(page);
  await page.locator('#lesson-title').click();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('lesson-step-counter')).toHaveAttribute('data-step', '3');
  await liveStep(page);
  // The open request already set step 2's checkpoint: only step 3 needed a goto.
  expect(await posted('open')).toBe(1);
  expect(await posted('goto')).toBe(1);
});

/** Moves the focus with Tab (or Shift+Tab, backwards) and nothing else until `target` has it. */
async function tabTo(page: Page, target: ReturnType<Page['locator']>, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  await expect(target).toBeVisible();
  for (let k = 0; k < 400; k++) {
    if (await target.evaluate((e) => e === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${key} never reached ${String(target)}`);
}

test('keyboard alone: a lesson exercise by the student’s route and by "show me", and its question', async ({ page }) => {
  test.setTimeout(300_000);
  await openView(page, '?view=learn&learn.lesson=1&learn.step=7', 'learn', 60_000);
  await liveStep(page);
  const ex = page.getByTestId('exercise');
  await expect(ex).toHaveAttribute('data-done', 'false');
  await page.keyboard.press('i');
  await expect(page.getByTestId('hint')).toHaveCount(1);
  // The student's route (lesson 1's show_me, by keys): send put y 2 to the leader, deliver it,
  // drop the accept to n0, deliver the one to n2 and n2's answer.
  const leader = await leaderId(page);
  const nodeBox = page.getByTestId('client-node');
  await tabTo(page, nodeBox);
  for (let k = 0; k < 5 && (await nodeBox.inputValue()) !== String(leader); k++) await page.keyboard.press((await nodeBox.inputValue()) < String(leader) ? 'ArrowDown' : 'ArrowUp');
  await expect(nodeBox).toHaveValue(String(leader));
  await tabTo(page, page.getByTestId('client-line'));
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('put y 2');
  await tabTo(page, page.getByTestId('client-send'));
  await page.keyboard.press('Enter');
  const pending = page.locator('.lesson-panel [data-testid=pending-list]');
  for (const a of [
    { do: 'deliver', sel: 'li[data-kind=client]' },
    { do: 'drop', sel: 'li[data-type=accept_request][data-to="0"]' },
    { do: 'deliver', sel: 'li[data-type=accept_request][data-to="2"]' },
    { do: 'deliver', sel: 'li[data-type=accept_response][data-from="2"]' },
  ]) {
    const item = pending.locator(a.sel).first();
    const text = (await item.textContent())!;
    await tabTo(page, item.getByRole('button', { name: a.do, exact: true }));
    await page.keyboard.press('Enter');
    await expect(pending.locator('li').filter({ hasText: text })).toHaveCount(0);
  }
  await expect(ex).toHaveAttribute('data-done', 'true');
  await expect(ex).toHaveAttribute('data-route', 'student');
  // Reset (x), then "show me" by Tab and Enter.
  await page.keyboard.press('x');
  await expect(ex).toHaveAttribute('data-done', 'false');
  await tabTo(page, page.getByTestId('show-me'));
  await page.keyboard.press('Enter');
  await expect(ex).toHaveAttribute('data-done', 'true');
  await expect(ex).toHaveAttribute('data-route', 'show-me');
  // Back to step 2 with ←, and its question answered by Tab and Enter: wrong, then right.
  for (let k = 7; k > 2; k--) {
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByTestId('lesson-step-counter')).toHaveAttribute('data-step', String(k - 1));
  }
  const options = page.getByTestId('question').getByTestId('answer-option');
  const explanation = page.getByTestId('answer-explanation');
  await tabTo(page, options.nth(1));
  await page.keyboard.press('Enter');
  await expect(explanation).toHaveAttribute('data-correct', 'false');
  // The right answer is just before: back one (forward, Tab would go round the whole page).
  await tabTo(page, options.nth(0), 'Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(explanation).toHaveAttribute('data-correct', 'true');
});

test('every control of the lesson player has a name a screen reader can say', async ({ page }) => {
  test.setTimeout(300_000);
  const unnamed = () =>
    page.evaluate(() => {
      const nameOf = (e: Element): string => {
        const labelled = (e.getAttribute('aria-labelledby') ?? '')
          .split(' ')
          .filter(Boolean)
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ');
        const labels = 'labels' in e && (e as HTMLInputElement).labels ? [...(e as HTMLInputElement).labels!].map((l) => l.textContent ?? '').join(' ') : '';
        const own = e.tagName === 'SELECT' || e.tagName === 'INPUT' ? '' : (e.textContent ?? '');
        return [e.getAttribute('aria-label') ?? '', labelled, labels, own, e.getAttribute('title') ?? ''].join(' ').trim();
      };
      return [...document.querySelectorAll('.learn-view :is(button, select, input, textarea, a[href], [role=button], [tabindex]:not([tabindex="-1"]))')]
        .filter((e) => e.getClientRects().length > 0 && (e as HTMLInputElement).type !== 'hidden')
        .filter((e) => nameOf(e) === '')
        .map((e) => e.outerHTML.slice(0, 160));
    });
  // A protocol lesson on all four engines (the Cluster panel), an experiment, and the Cost view.
  for (const [lesson, step, engine] of [
    [1, 7, 'all'],
    [9, 1, 'go'],
    [14, 4, 'go'],
  ] as const) {
    await openView(page, `?view=learn&learn.lesson=${lesson}&learn.step=${step}&learn.engine=${engine}`, 'learn', 60_000);
    await liveStep(page);
    if (lesson === 14) await expect(page.getByTestId('break-even')).toBeVisible({ timeout: 120_000 });
    expect(await unnamed(), `lesson ${lesson} step ${step}`).toEqual([]);
  }
});
