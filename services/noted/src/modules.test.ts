import { describe, expect, it } from 'vitest';
import { resolveTargets } from './manager.js';
import { allTarget, modules } from './modules.js';

describe('the module map', () => {
  it('starts the modules a module reads first when they share its process, in any target order', () => {
    expect(resolveTargets(modules, ['ai', 'notes', 'users'], allTarget)).toEqual([
      'bus',
      'users',
      'notes',
      'ai',
    ]);
    // users reads identity (where it deletes a deleted account's development account).
    expect(resolveTargets(modules, ['gateway', 'users'], allTarget)).toEqual([
      'identity',
      'bus',
      'users',
      'gateway',
    ]);
  });

  it('runs a module without the modules it reads (they run elsewhere)', () => {
    expect(resolveTargets(modules, ['notes'], allTarget)).toEqual(['bus', 'notes']);
    expect(resolveTargets(modules, ['ai'], allTarget)).toEqual(['bus', 'ai']);
    expect(resolveTargets(modules, ['gateway'], allTarget)).toEqual(['identity', 'gateway']);
    // export hears user.deleted for the Notion connections it keeps.
    expect(resolveTargets(modules, ['export'], allTarget)).toEqual(['bus', 'export']);
  });
});
