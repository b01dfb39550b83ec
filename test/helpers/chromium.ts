import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { SAFETY_NET_MS } from './safety-net.js';

/** Debian's Chromium (.ci/setup.d/30-chromium.sh installs it); no browser is ever downloaded. */
const CHROMIUM = '/usr/bin/chromium';
export const chromiumMissing: string | undefined = existsSync(CHROMIUM)
  ? undefined
  : `${CHROMIUM} is not installed (apt-get install chromium, as .ci/setup.d/30-chromium.sh does)`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // Without the background-networking flags Chromium tries the internet and floods refused connections.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    timeout: SAFETY_NET_MS,
  });
}
