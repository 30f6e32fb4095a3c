#!/usr/bin/env node
// `npm run bench:web`: what the built lab costs a visitor. Prints
//  1. the size of every built asset, raw and gzip (level 9);
//  2. per view, in a cold headless Chromium: the JS fetched before the view is interactive
//     (gzip) and the time to interactive: the later of "the view is ready" (html[data-ready])
//     and the end of the last long task (> 50 ms) before a 1 s quiet window (waited for with a
//     plain evaluate, see when-in-page.mjs: Playwright's waitForFunction added a long task);
//  3. frames per second while a 3-node cluster plays at 4× in the Cluster view.
// Also the CPU time every browser process used for the load (to ready, and to 2.5 s after it).
// Options: --ab OTHER_DIST (another build, e.g. main's, served beside this one: every cold load
// of this build is followed by the same load of that one, so both see the same load),
// --views home,learn (a subset, in that order), --repeats N (each view N times, cold
// each time, interleaved: median and range are printed, with the load average before and after:
// the machine is shared, so times move with it; bytes do not), --no-fps.
// Targets (issue 5): TTI ≤ 2 s, 60 fps, initial JS ≤ 300 KB gzip; (issue 12) the home page and a
// lesson TTI ≤ 1 s, the home page's initial JS ≤ 150 KB gzip. Figures, not pass/fail.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromiumLaunchOptions } from '@replicant/engines/chromium';
import { chromium } from 'playwright-core';
import { serveDist } from './serve-dist.mjs';
import { whenInPage } from './when-in-page.mjs';

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(WEB, 'dist');
const VIEWS = [
  // an empty page: what a cold context and renderer cost before any of the lab's code
  ['baseline', 'data:text/html,<html data-ready="baseline"><body></body></html>'],
  ['home', ''],
  // a lesson as the home page's first door opens it (its default engine), and on Go
  ['learn', '?view=learn&learn.lesson=1&learn.step=1'],
  ['learn-go', '?view=learn&learn.lesson=1&learn.step=1&learn.engine=go'],
  ['paper', '?view=paper'],
  ['cost', '?view=cost'],
  ['cluster', '?view=cluster&c.engine=go'],
  ['lab', '?view=lab'],
  ['race', '?view=race'],
];
const TARGET_TTI_MS = 2000;
const TARGET_INITIAL_JS_KB = 300;
// Issue 12: the home page and a lesson are interactive within 1 s; the home page loads at most
// 150 KB of JS (gzip).
const TARGETS = { home: { tti_ms: 1000, js_kb: 150 }, learn: { tti_ms: 1000, js_kb: TARGET_INITIAL_JS_KB }, 'learn-go': { tti_ms: 1000, js_kb: TARGET_INITIAL_JS_KB } };
const kb = (n) => (n / 1024).toFixed(1);

function walk(dir) {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

const gzipCache = new Map();
function gzipSize(file) {
  if (!gzipCache.has(file)) gzipCache.set(file, gzipSync(readFileSync(file), { level: 9 }).length);
  return gzipCache.get(file);
}

function printSizes() {
  const files = walk(DIST).filter((f) => !f.includes(`${join(DIST, 'pyodide')}/`));
  console.log('\n== built assets (web/dist) ==');
  console.log('  raw KB   gzip KB  file');
  let js = 0;
  for (const f of files.sort()) {
    const raw = statSync(f).size;
    const gz = gzipSize(f);
    if (f.endsWith('.js')) js += gz;
    console.log(`${kb(raw).padStart(8)} ${kb(gz).padStart(9)}  ${relative(DIST, f)}`);
  }
  const py = walk(join(DIST, 'pyodide'));
  const pyRaw = py.reduce((n, f) => n + statSync(f).size, 0);
  const pyGz = py.reduce((n, f) => n + gzipSize(f), 0);
  console.log(`${kb(pyRaw).padStart(8)} ${kb(pyGz).padStart(9)}  pyodide/ (${py.length} files, loaded only by the cost page's worker)`);
  console.log(`  all JS of the site (every view and engine, gzip): ${kb(js)} KB`);
}

/**
 * CPU seconds every process of the browser has used so far, by process id (Chromium's own
 * count, SystemInfo.getProcessInfo): a load's CPU time is the growth of these between two
 * moments. CPU time moves far less than wall time on a shared machine (a page waiting for a
 * core costs wall time, not CPU time).
 */
async function cpuByProcess(cdp) {
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  return new Map(processInfo.map((p) => [`${p.type}:${p.id}`, p.cpuTime]));
}
function cpuSince(before, after) {
  let s = 0;
  for (const [k, v] of after) s += v - (before.get(k) ?? 0);
  return s * 1000;
}

async function measureView(browser, base, name, query, cdp, dist = DIST) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await context.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.startTime + e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  });
  const page = await context.newPage();
  const scripts = [];
  page.on('response', (r) => {
    const url = new URL(r.url());
    if (url.pathname.endsWith('.js') || url.pathname.endsWith('.mjs')) scripts.push({ path: url.pathname, at: Date.now() });
  });
  const cpu0 = await cpuByProcess(cdp);
  const t0 = Date.now();
  await page.goto(query.startsWith('data:') ? query : `${base}/${query}`);
  const readyMs = await whenInPage(page, 'ready', name.replace(/-.*/, ''), 30_000).catch(() => null);
  if (readyMs === null) {
    await context.close();
    return { name, error: 'never became ready (30 s)' };
  }
  const readyWall = t0 + readyMs;
  const cpuReadyMs = cpuSince(cpu0, await cpuByProcess(cdp));
  // A lesson's text is interactive first; its engines and checkpoints arrive after (data-live).
  const liveMs = name.startsWith('learn') ? await whenInPage(page, 'live', 'ready', 60_000).catch(() => null) : null;
  // Long tasks are watched for a while after the last of those, so a 1 s quiet window can show.
  await page.waitForTimeout(2500);
  const cpuAllMs = cpuSince(cpu0, await cpuByProcess(cdp));
  const longTasks = await page.evaluate(() => window.__longTasks);
  // TTI: from ready, the first 1 s window without a long task starts at the end of the last
  // long task before it.
  let tti = readyMs;
  for (const [start, end] of longTasks.sort((a, b) => a[0] - b[0])) {
    if (end <= tti) continue;
    if (start - tti >= 1000) break;
    tti = end;
  }
  const initial = scripts
    .filter((s) => s.at <= readyWall + 50)
    .map((s) => join(dist, decodeURIComponent(s.path)))
    .filter((f) => {
      try {
        return statSync(f).isFile();
      } catch {
        return false;
      }
    });
  const initialGz = [...new Set(initial)].reduce((n, f) => n + gzipSize(f), 0);
  await context.close();
  return { name, readyMs, liveMs, tti, cpuReadyMs, cpuAllMs, longTasks: longTasks.length, initialKb: initialGz / 1024, files: new Set(initial).size };
}

async function measureFps(browser, base) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.goto(`${base}/?view=cluster&c.engine=go&c.nodes=3&c.speed=4`);
  try {
    await page.waitForFunction(() => document.documentElement.dataset.ready === 'cluster', null, { timeout: 30_000 });
  } catch {
    const why = await page.locator('[data-testid="cluster-error"]').textContent().catch(() => null);
    await context.close();
    return { error: why ?? 'the Cluster view never became ready' };
  }
  await page.getByTestId('play').click();
  const r = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const frames = [];
        const start = performance.now();
        const startStep = document.querySelector('[data-testid="step-counter"]')?.textContent;
        const tick = (t) => {
          frames.push(t);
          if (t - start < 5000) requestAnimationFrame(tick);
          else {
            const gaps = frames.slice(1).map((x, i) => x - frames[i]).sort((a, b) => a - b);
            resolve({
              fps: (frames.length - 1) / ((frames[frames.length - 1] - frames[0]) / 1000),
              p95_ms: gaps[Math.floor(gaps.length * 0.95)],
              max_ms: gaps[gaps.length - 1],
              startStep,
              endStep: document.querySelector('[data-testid="step-counter"]')?.textContent,
            });
          }
        };
        requestAnimationFrame(tick);
      }),
  );
  await context.close();
  return r;
}

function options(argv) {
  const o = { views: VIEWS.map(([n]) => n), repeats: 1, fps: true, ab: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--views') o.views = argv[++i].split(',');
    else if (a === '--repeats') o.repeats = Number(argv[++i]);
    else if (a === '--no-fps') o.fps = false;
    else if (a === '--ab') o.ab = resolve(argv[++i]);
    else throw new Error(`unknown option ${a} (--views a,b --repeats N --no-fps --ab OTHER_DIST)`);
  }
  const unknown = o.views.filter((v) => !VIEWS.some(([n]) => n === v));
  if (unknown.length > 0) throw new Error(`no view ${unknown.join(', ')} (one of ${VIEWS.map(([n]) => n).join(', ')})`);
  if (!Number.isInteger(o.repeats) || o.repeats < 1) throw new Error('--repeats takes a whole number ≥ 1');
  return o;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const loadText = () => loadavg().map((x) => x.toFixed(1)).join(' ');

async function main() {
  const opts = options(process.argv.slice(2));
  printSizes();
  const builds = [{ label: 'this', dist: DIST }, ...(opts.ab ? [{ label: 'other', dist: opts.ab }] : [])];
  const servers = [];
  for (const b of builds) {
    const server = await serveDist(b.dist);
    servers.push(server);
    b.base = server.base;
  }
  const base = builds[0].base;
  const browser = await chromium.launch(chromiumLaunchOptions());
  const cdp = await browser.newBrowserCDPSession();
  try {
    console.log(`\n== time to interactive, cold cache, headless Chromium ${browser.version()} at 1280×720 ==`);
    if (opts.ab) console.log(`  A/B: "this" is ${DIST}, "other" is ${opts.ab}, each load of one followed by the same load of the other`);
    console.log('  view       ready ms    TTI ms   long tasks   initial JS (gzip); CPU ms (every browser process) to ready / to ready + 2.5 s');
    console.log(`  load average (1, 5, 15 min) before: ${loadText()}; ${opts.repeats} cold load(s) per view, interleaved`);
    const key = (b, name) => (opts.ab ? `${name} ${b.label}` : name);
    const runs = new Map(opts.views.flatMap((v) => builds.map((b) => [key(b, v), []])));
    for (let k = 0; k < opts.repeats; k++) {
      for (const name of opts.views) {
        for (const b of k % 2 === 0 ? builds : [...builds].reverse()) {
        const query = VIEWS.find(([n]) => n === name)[1];
        const r = await measureView(browser, b.base, name, query, cdp, b.dist);
        const label = key(b, name);
        runs.get(label).push(r);
        if (r.error) {
          console.log(`  ${label.padEnd(9)}  ${r.error}`);
          continue;
        }
        const target = TARGETS[name] ?? { tti_ms: TARGET_TTI_MS, js_kb: TARGET_INITIAL_JS_KB };
        const flag = r.tti <= target.tti_ms ? `  (target ${target.tti_ms} ms: met)` : `  (over the ${target.tti_ms} ms target)`;
        const jsFlag = r.initialKb <= target.js_kb ? '' : `  (over the ${target.js_kb} KB target)`;
        console.log(
          `  ${label.padEnd(9)} ${r.readyMs.toFixed(0).padStart(9)} ${r.tti.toFixed(0).padStart(9)} ${String(r.longTasks).padStart(12)}   ${r.initialKb.toFixed(1)} KB in ${r.files} files${flag}${jsFlag}${r.liveMs != null ? `; engines live at ${r.liveMs.toFixed(0)} ms` : ''}; CPU ${r.cpuReadyMs.toFixed(0)} / ${r.cpuAllMs.toFixed(0)} ms`,
        );
        }
      }
    }
    console.log(`  load average after: ${loadText()}`);
    if (opts.repeats > 1) {
      console.log('\n== over the repeats: median [min – max] ==');
      for (const [name, rs] of runs) {
        const ok = rs.filter((r) => !r.error);
        if (ok.length === 0) continue;
        const tti = ok.map((r) => r.tti);
        const ready = ok.map((r) => r.readyMs);
        const js = ok.map((r) => r.initialKb);
        const live = ok.map((r) => r.liveMs).filter((x) => x != null);
        const cpuReady = ok.map((r) => r.cpuReadyMs);
        const cpuAll = ok.map((r) => r.cpuAllMs);
        const target = TARGETS[name.split(' ')[0]] ?? { tti_ms: TARGET_TTI_MS };
        console.log(
          `  ${name.padEnd(9)} TTI ${median(tti).toFixed(0)} ms [${Math.min(...tti).toFixed(0)} – ${Math.max(...tti).toFixed(0)}], ready ${median(ready).toFixed(0)} ms [${Math.min(...ready).toFixed(0)} – ${Math.max(...ready).toFixed(0)}], initial JS ${median(js).toFixed(1)} KB gzip [${Math.min(...js).toFixed(1)} – ${Math.max(...js).toFixed(1)}]; ${tti.filter((t) => t <= target.tti_ms).length}/${ok.length} runs within ${target.tti_ms} ms${live.length ? `; engines live ${median(live).toFixed(0)} ms [${Math.min(...live).toFixed(0)} – ${Math.max(...live).toFixed(0)}]` : ''}; CPU to ready ${median(cpuReady).toFixed(0)} ms [${Math.min(...cpuReady).toFixed(0)} – ${Math.max(...cpuReady).toFixed(0)}], to ready + 2.5 s ${median(cpuAll).toFixed(0)} ms [${Math.min(...cpuAll).toFixed(0)} – ${Math.max(...cpuAll).toFixed(0)}]`,
        );
      }
    }
    if (!opts.fps) return;
    console.log('\n== frames per second, Cluster view, 3 Go nodes playing at 4× for 5 s ==');
    const f = await measureFps(browser, base);
    if (f.error) console.log(`  not measured: ${f.error}`);
    else
      console.log(
        `  ${f.fps.toFixed(1)} fps (target 60); frame time p95 ${f.p95_ms.toFixed(1)} ms, worst ${f.max_ms.toFixed(1)} ms; ${f.startStep} → ${f.endStep}`,
      );
  } finally {
    await browser.close();
    for (const s of servers) s.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
