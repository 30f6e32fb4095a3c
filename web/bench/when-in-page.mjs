// Waits in the page for the view to be ready (html[data-ready] = want) or for a lesson's engines
// to be live (.learn-view[data-live] = want) and returns when it became so (performance.now(),
// ms from navigation), checked every frame.
//
// Not Playwright's waitForFunction: that first evaluates Playwright's injected script (about
// 330 KB) in the page, a 50–90 ms task on the page's main thread that the page's own long-task
// observer counts, so the bench measured its own tool into every view's time to interactive. A
// plain evaluate (Playwright's small utility script) costs the page a few ms.
export async function whenInPage(page, what, want, timeoutMs) {
  const at = await page.evaluate(
    ({ what, want, timeoutMs }) =>
      new Promise((resolve) => {
        const read = () => (what === 'ready' ? document.documentElement.dataset.ready : document.querySelector('.learn-view')?.getAttribute('data-live'));
        const start = performance.now();
        const check = () => {
          if (read() === want) resolve(performance.now());
          else if (performance.now() - start > timeoutMs) resolve(null);
          else requestAnimationFrame(check);
        };
        check();
      }),
    { what, want, timeoutMs },
  );
  return at;
}
