import { describe, expect, it } from 'vitest';
import { registry } from './metrics.js';

describe('the metrics registry', () => {
  it('ends the names of counters, and of nothing else, in _total, as Prometheus asks', async () => {
    const families = await registry.getMetricsAsJSON();
    const misnamed = families
      .filter((family) => family.name.endsWith('_total') !== (String(family.type) === 'counter'))
      .map((family) => `${family.name} (${family.type})`);
    expect(families.length).toBeGreaterThan(10);
    expect(misnamed).toEqual([]);
  });

  it('keeps the per-type Node.js gauges whose sums it drops', async () => {
    const names = (await registry.getMetricsAsJSON()).map((family) => family.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'nodejs_active_handles',
        'nodejs_active_requests',
        'nodejs_active_resources',
      ]),
    );
  });
});
