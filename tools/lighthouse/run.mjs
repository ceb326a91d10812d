// Lighthouse's accessibility category on each address given, in one headless
// Chromium (CHROME_PATH, Debian's by default), for tools/lighthouse.py.
// Prints one JSON object: {url: {score, failing: [{id, title, items}]}}.
// LIGHTHOUSE_FORM=desktop measures at a desktop's size; Lighthouse's own
// default, a phone (412 x 823, touch), otherwise. LIGHTHOUSE_LANG=de asks
// for the pages in that language (Accept-Language).
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const urls = process.argv.slice(2);
const desktop = process.env.LIGHTHOUSE_FORM === 'desktop';
const language = process.env.LIGHTHOUSE_LANG;
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
    '--no-first-run', '--disable-background-networking', '--disable-component-update'],
  logLevel: 'silent',
});
// The pages are local and small: short quiet windows (Lighthouse's default
// throttling, simulated, only touches performance figures, not measured here;
// observed throttling would force 5.25 s windows).
const QUICK = {
  extends: 'lighthouse:default',
  settings: {pauseAfterFcpMs: 500, pauseAfterLoadMs: 500, networkQuietThresholdMs: 500, cpuQuietThresholdMs: 500},
};
const results = {};
try {
  for (const url of urls) {
    const runner = await lighthouse(url, {
      disableFullPageScreenshot: true,
      ...(language ? {extraHeaders: {'Accept-Language': language}} : {}),
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['accessibility'],
      ...(desktop ? {
        formFactor: 'desktop',
        screenEmulation: {mobile: false, width: 1350, height: 940, deviceScaleFactor: 1, disabled: false},
      } : {}),
    }, QUICK);
    const lhr = runner.lhr;
    const category = lhr.categories.accessibility;
    const failing = [];
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit.score !== null && audit.score < 1) {
        const items = ((audit.details && audit.details.items) || []).slice(0, 5)
          .map((item) => (item.node && (item.node.selector || item.node.snippet)) || '');
        failing.push({id: ref.id, title: audit.title, weight: ref.weight, items});
      }
    }
    results[url] = {
      score: category.score === null ? null : Math.round(category.score * 100),
      failing,
      error: lhr.runtimeError ? lhr.runtimeError.message : null,
    };
  }
} finally {
  await chrome.kill();
}
process.stdout.write(JSON.stringify(results) + '\n');
