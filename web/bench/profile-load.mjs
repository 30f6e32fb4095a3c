#!/usr/bin/env node
// What a cold load of one view spends its time on, from a Chromium performance trace: every
// task on the page's main thread from navigation to 2.5 s after the view is ready, split into
// script parse/compile (per file), script run (per file), wasm compile, style and layout, paint,
// HTML parse and the rest; the same for the page's workers (where the engines load). Tasks over
// 50 ms (the "long tasks" the bench's time to interactive counts) are listed one by one with
// what they did. Prints figures; the bench (bench-web.mjs) is what measures time to interactive.
//
//   node bench/profile-load.mjs [--view learn-go] [--dist DIR] [--repeats N] [--trace FILE]
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumLaunchOptions } from '@replicant/engines/chromium';
import { chromium } from 'playwright-core';
import { serveDist } from './serve-dist.mjs';
import { whenInPage } from './when-in-page.mjs';

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const QUERIES = {
  home: '',
  learn: '?view=learn&learn.lesson=1&learn.step=1',
  'learn-go': '?view=learn&learn.lesson=1&learn.step=1&learn.engine=go',
};
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'disabled-by-default-v8.compile', 'blink.user_timing', 'loading', 'toplevel', 'v8.wasm'].join(',');

function options(argv) {
  const o = { view: 'learn-go', dist: join(WEB, 'dist'), repeats: 1, trace: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--view') o.view = argv[++i];
    else if (a === '--dist') o.dist = resolve(argv[++i]);
    else if (a === '--repeats') o.repeats = Number(argv[++i]);
    else if (a === '--trace') o.trace = resolve(argv[++i]);
    else throw new Error(`unknown option ${a} (--view NAME --dist DIR --repeats N --trace FILE)`);
  }
  if (!(o.view in QUERIES)) throw new Error(`no view ${o.view} (one of ${Object.keys(QUERIES).join(', ')})`);
  return o;
}

const short = (url) => (url ? url.replace(/^.*\/(assets\/)?/, '').replace(/\?.*$/, '') || url : '?');

/** The bucket an event's own time (its duration less its children's) goes to. */
function bucket(e) {
  const d = e.args?.data ?? {};
  switch (e.name) {
    case 'v8.compile':
    case 'v8.compileModule':
    case 'v8.produceModuleCache':
    case 'V8.CompileCode':
    case 'v8.parseOnBackground':
    case 'V8.ScriptCompiler':
      return `parse/compile ${short(d.url ?? e.args?.fileName)}`;
    case 'EvaluateScript':
    case 'v8.evaluateModule':
    case 'FunctionCall':
    case 'v8.run':
    case 'V8.Execute':
      return `run ${short(d.url ?? d.scriptName ?? e.args?.fileName)}`;
    case 'v8.wasm.compiledModule':
    case 'v8.wasm.streamFromResponseCallback':
    case 'wasm.SyncCompile':
    case 'wasm.AsyncCompile':
    case 'v8.wasm.startStreamingCompilation':
      return 'wasm compile';
    case 'UpdateLayoutTree':
    case 'RecalculateStyles':
    case 'Layout':
    case 'ParseAuthorStyleSheet':
      return 'style + layout';
    case 'Paint':
    case 'PrePaint':
    case 'Layerize':
    case 'UpdateLayer':
    case 'CompositeLayers':
    case 'Commit':
      return 'paint';
    case 'ParseHTML':
      return 'parse HTML';
    case 'MinorGC':
    case 'MajorGC':
    case 'V8.GCScavenger':
    case 'V8.GCFinalizeMC':
    case 'BlinkGC.AtomicPhase':
      return 'GC';
    default:
      return null;
  }
}

/** Per thread: the total own time of every bucket within [from, to], and the long tasks. */
function analyse(events, tid, pid, from, to) {
  const mine = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.ts >= from && e.ts <= to).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const totals = new Map();
  const add = (k, us) => totals.set(k, (totals.get(k) ?? 0) + us);
  // A stack of open events: an event's own time is its duration less its direct children's.
  const stack = [];
  const tasks = [];
  const close = (until) => {
    while (stack.length > 0 && stack[stack.length - 1].end <= until) {
      const s = stack.pop();
      const own = s.e.dur - s.childUs;
      const label = s.bucket;
      if (label) add(label, own);
      else if (s.task) add('other (in a task)', own);
      if (s.task) tasks.push(s);
    }
  };
  for (const e of mine) {
    close(e.ts);
    const parent = stack[stack.length - 1];
    if (parent) parent.childUs += e.dur ?? 0;
    const b = bucket(e) ?? parent?.bucket ?? null;
    const isTask = !parent && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunMicrotasks');
    const node = { e, end: e.ts + (e.dur ?? 0), childUs: 0, bucket: bucket(e) ? b : parent?.bucket ?? null, task: isTask, parts: new Map() };
    // Attribute to the enclosing task's breakdown too.
    const top = stack[0];
    if (top && bucket(e) && !parent?.bucket) top.parts.set(b, (top.parts.get(b) ?? 0) + (e.dur ?? 0));
    stack.push(node);
  }
  close(Infinity);
  return { totals, longTasks: tasks.filter((t) => t.e.dur > 50_000) };
}

async function main() {
  const o = options(process.argv.slice(2));
  const server = await serveDist(o.dist);
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    console.log(`view ${o.view} of ${o.dist}; Chromium ${browser.version()}; load average before ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    for (let k = 0; k < o.repeats; k++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      const page = await context.newPage();
      await browser.startTracing(page, { categories: CATEGORIES.split(',') });
      await page.goto(`${server.base}/${QUERIES[o.view]}`);
      const readyMs = await whenInPage(page, 'ready', o.view.replace(/-.*/, ''), 30_000);
      const liveMs = o.view.startsWith('learn') ? await whenInPage(page, 'live', 'ready', 60_000) : null;
      await page.waitForTimeout(2500);
      // (the trace spans to 2.5 s after the engines are live, or after ready)
      const buf = await browser.stopTracing();
      await context.close();
      if (o.trace) writeFileSync(o.repeats > 1 ? o.trace.replace(/(\.json)?$/, `-${k + 1}.json`) : o.trace, buf);
      const events = JSON.parse(buf.toString()).traceEvents;
      const names = events.filter((e) => e.ph === 'M' && e.name === 'thread_name');
      const nav = events.filter((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame && e.args?.data?.documentLoaderURL?.startsWith('http')).sort((a, b) => a.ts - b.ts)[0];
      if (!nav) throw new Error('no navigationStart in the trace');
      const main = { pid: nav.pid, tid: nav.tid };
      const t0 = nav.ts;
      const rel = (us) => ((us - t0) / 1000).toFixed(0);
      console.log(`\n== load ${k + 1}: ready at ${readyMs.toFixed(0)} ms${liveMs != null ? `, engines live at ${liveMs.toFixed(0)} ms` : ''} (from navigation) ==`);
      const threads = [{ label: 'main thread', ...main }, ...names.filter((n) => n.pid === main.pid && /Worker/i.test(n.args?.name ?? '')).map((n) => ({ label: n.args.name, pid: n.pid, tid: n.tid }))];
      for (const th of threads) {
        const endMs = (liveMs ?? readyMs) + 2500;
        for (const [span, to] of [
          ['to ready', t0 + readyMs * 1000],
          [`ready to ${liveMs != null ? 'live' : 'ready'} + 2.5 s`, t0 + endMs * 1000],
        ]) {
          const from = span === 'to ready' ? t0 : t0 + readyMs * 1000;
          const { totals, longTasks } = analyse(events, th.tid, th.pid, from, to);
          const sum = [...totals.values()].reduce((a, b) => a + b, 0);
          if (sum < 1000) continue;
          console.log(`  ${th.label}, ${span}: ${(sum / 1000).toFixed(0)} ms busy`);
          for (const [k2, us] of [...totals].sort((a, b) => b[1] - a[1]).filter(([, us]) => us >= 3000)) console.log(`    ${(us / 1000).toFixed(0).padStart(6)} ms  ${k2}`);
          if (th.label === 'main thread')
            for (const t of longTasks)
              console.log(
                `    long task at ${rel(t.e.ts)} ms, ${(t.e.dur / 1000).toFixed(0)} ms: ${[...t.parts]
                  .sort((a, b) => b[1] - a[1])
                  .slice(0, 4)
                  .map(([n, us]) => `${n} ${(us / 1000).toFixed(0)}`)
                  .join(', ')}`,
              );
        }
      }
    }
  } finally {
    await browser.close();
    server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
