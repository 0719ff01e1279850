// Browser tests: Debian's chromium (no browser download), one worker (the machine is shared), the
// server started by each test file on a free loopback port with a database of its own.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'e2e',
  workers: 1,
  timeout: 240_000,
  reporter: [['list']],
  outputDir: '../build/web-test-results',
  use: {
    launchOptions: {
      executablePath: process.env.ATOUT_CHROMIUM ?? '/usr/bin/chromium',
      // No reaching out: the machine's network is closed to everything but the registries.
      args: ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'],
    },
    trace: 'off',
  },
});
