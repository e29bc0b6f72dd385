import { describe, expect, it } from 'vitest';
import { extractivePeriod } from './usecases.js';

describe('extractivePeriod', () => {
  it('gives one bullet per note: its title, then its sentences, never the title again', () => {
    const summary = extractivePeriod('week', [
      {
        id: 'sync',
        title: 'Atlas weekly sync',
        body: '# Atlas weekly sync\n\nLaunch moves to March 9 because the payment provider needs another review.\n\n## Action items\n- [ ] Dana: send the revised timeline by Friday\n- [ ] Sam: ask legal about the agreement',
      },
      { id: 'dentist', title: 'Dentist at 3pm', body: '' },
      { id: 'shop', title: 'Shopping', body: '# Shopping\n- milk\n- eggs\n- *bread*' },
    ]);
    const lines = summary.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^- \*\*Atlas weekly sync\*\*: Launch moves to March 9/);
    expect(lines[0]).toContain('Action items: send the revised timeline by Friday (Dana)');
    expect(lines[0]).not.toMatch(/: Atlas weekly sync/);
    expect(lines[1]).toBe('- **Dentist at 3pm**');
    expect(lines[2]).toBe('- **Shopping**: milk, eggs, bread.');
  });
});
