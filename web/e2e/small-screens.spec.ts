// Every view fits a phone (390 px wide) and a small laptop (1024×700): nothing scrolls
// sideways, and the header keeps every view and action on screen.
import { test, expect, type Page } from '@playwright/test';
import { openView } from './helpers.ts';

const VIEWS = ['cluster', 'lab', 'race', 'paper', 'cost'] as const;
const SIZES = [
  { width: 390, height: 844 },
  { width: 1024, height: 700 },
];

async function sidewaysOverflow(page: Page): Promise<{ scrollWidth: number; width: number; offenders: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    // Elements that stick out of the page (a box that scrolls inside itself is fine).
    const offenders = [...document.querySelectorAll('body *')]
      .filter((e) => {
        const r = e.getBoundingClientRect();
        if (r.width === 0 || r.right <= width + 1) return false;
        for (let p = e.parentElement; p; p = p.parentElement) if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(p).overflowX)) return false;
        return true;
      })
      .slice(0, 6)
      .map((e) => `${e.tagName}.${String(e.className)} right=${Math.round(e.getBoundingClientRect().right)}`);
    return { scrollWidth: document.documentElement.scrollWidth, width, offenders };
  });
}

for (const size of SIZES) {
  for (const view of VIEWS) {
    test(`the ${view} view fits ${size.width}×${size.height} with no sideways scroll`, async ({ page }) => {
      await page.setViewportSize(size);
      await openView(page, `?view=${view}`, view, 60_000);
      if (view === 'cost') {
        await expect(page.getByTestId('break-even')).toHaveAttribute('data-month', /\d+/);
        // The widest parts: tight vs ample and the instance table.
        await expect(page.getByTestId('tight-vs-ample-table')).toBeVisible();
        await expect(page.getByTestId('instance-table')).toBeVisible();
      }
      const nav = page.getByRole('navigation', { name: 'Views' });
      for (const link of await nav.getByRole('link').all()) await expect(link).toBeInViewport();
      await expect(page.getByRole('button', { name: 'Present' })).toBeInViewport();
      await expect(page.getByRole('button', { name: 'Keyboard shortcuts' })).toBeInViewport();
      const o = await sidewaysOverflow(page);
      expect(o.offenders, `${view} at ${size.width} px`).toEqual([]);
      expect(o.scrollWidth).toBeLessThanOrEqual(o.width);
    });
  }
}
