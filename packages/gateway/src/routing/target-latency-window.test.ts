import { expect, it } from 'vitest';
import { TARGET_WINDOW_MAX_SAMPLES, TargetLatencyWindow } from './target-latency-window.js';

it('answers nearest-rank percentiles of the answered attempts and the error rate of all attempts in the window', () => {
  const window = new TargetLatencyWindow(60_000);
  for (let latency = 1; latency <= 100; latency += 1) window.record(1000 + latency, latency, false);
  for (let index = 0; index < 25; index += 1) window.record(2000, 5000, true);
  expect(window.summary(2000)).toEqual({ attempts: 125, errorRate: 0.2, latencyP50Ms: 50, latencyP90Ms: 90, latencyP99Ms: 99 });
});

it('forgets attempts that left the window, and says nothing of latency without an answered attempt', () => {
  const window = new TargetLatencyWindow(60_000);
  window.record(0, 10, false);
  window.record(30_000, 20, true);
  expect(window.summary(59_999)).toEqual({ attempts: 2, errorRate: 0.5, latencyP50Ms: 10, latencyP90Ms: 10, latencyP99Ms: 10 });
  expect(window.summary(60_000)).toEqual({ attempts: 1, errorRate: 1 });
  expect(window.summary(90_000)).toEqual({ attempts: 0, errorRate: 0 });
});

it('keeps the newest attempts only, at most its bound', () => {
  const window = new TargetLatencyWindow(60_000);
  for (let index = 0; index < TARGET_WINDOW_MAX_SAMPLES; index += 1) window.record(1000, 1000, false);
  for (let index = 0; index < TARGET_WINDOW_MAX_SAMPLES; index += 1) window.record(1000, 7, false);
  expect(window.summary(1000)).toMatchObject({ attempts: TARGET_WINDOW_MAX_SAMPLES, latencyP99Ms: 7 });
});
