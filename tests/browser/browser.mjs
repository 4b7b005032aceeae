// Launches Debian's chromium through playwright-core (no browser download) with the flags that
// work in this sandbox, and records every request the page makes.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

export async function openBrowser({ width = 1280, height = 900 } = {}) {
    // A fresh, empty profile each run, removed afterwards.
    const profile = mkdtempSync(join(tmpdir(), 'combatd-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: [
            '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
            '--disable-background-networking', '--disable-component-update', '--disable-sync',
        ],
        viewport: { width, height },
        timeout: 60000,
    });
    const requests = [];
    context.on('request', (r) => requests.push(r.url()));
    const page = context.pages()[0] || (await context.newPage());
    // Uncaught script errors. (Console messages are not collected: Chromium logs every 4xx and
    // 5xx answer there, and the page shows those answers on purpose.)
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    return {
        context, page, requests, pageErrors,
        async close() {
            await context.close();
            rmSync(profile, { recursive: true, force: true });
        },
    };
}
