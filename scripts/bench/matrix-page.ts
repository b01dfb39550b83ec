import { pathToFileURL } from 'node:url';
import { chromiumMissing, launchChromium } from '../../test/helpers/chromium.js';

/** How long Debian's Chromium takes to show a matrix.html: first paint, and the load event; undefined without Chromium. */
export async function pageOpening(file: string): Promise<{ firstPaintMs: number; loadMs: number } | undefined> {
  if (chromiumMissing) return undefined;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(file).href);
    return await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      return { firstPaintMs: Math.round(paint), loadMs: Math.round(navigation?.loadEventEnd ?? Number.NaN) };
    });
  } finally {
    await browser.close();
  }
}
