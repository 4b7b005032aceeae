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
    const consoleErrors = [];
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    return {
        context, page, requests, consoleErrors,
        async close() {
            await context.close();
            rmSync(profile, { recursive: true, force: true });
        },
    };
}
