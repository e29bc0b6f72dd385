import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeLocale, createI18n, readLocale, registerMessages } from './i18n';

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

const sets = {
  en: { greeting: 'Hello', onlyEnglish: 'Only in English' },
  zh: { greeting: '你好' },
};

describe('i18n', () => {
  it('is English by default and reads a saved choice', () => {
    expect(readLocale()).toBe('en');
    localStorage.setItem('locale', 'zh');
    expect(readLocale()).toBe('zh');
    localStorage.setItem('locale', 'fr');
    expect(readLocale()).toBe('en');
  });

  it('loads a message set lazily, only in the languages it needs', async () => {
    const loader = vi.fn(async (locale: 'en' | 'zh') => sets[locale]);
    const i18n = await createI18n('en');
    await registerMessages(i18n, { demo: loader });
    expect(loader.mock.calls).toEqual([['en']]);
    expect(i18n.t('greeting', { ns: 'demo' })).toBe('Hello');
  });

  it('switches to Chinese, falls back to English for what is missing, and saves the choice', async () => {
    const i18n = await createI18n('en');
    await registerMessages(i18n, { demo: async (locale) => sets[locale] });
    await changeLocale(i18n, 'zh');
    expect(i18n.t('greeting', { ns: 'demo' })).toBe('你好');
    expect(i18n.t('onlyEnglish', { ns: 'demo' })).toBe('Only in English');
    expect(localStorage.getItem('locale')).toBe('zh');
    expect(document.documentElement.lang).toBe('zh-CN');
  });

  it('logs a failed load and shows English', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const i18n = await createI18n('zh');
    await registerMessages(i18n, {
      demo: async (locale) => {
        if (locale === 'zh') throw new Error('chunk failed');
        return sets.en;
      },
    });
    expect(i18n.t('greeting', { ns: 'demo' })).toBe('Hello');
    expect(error).toHaveBeenCalledWith(
      expect.stringContaining('The zh messages of "demo" could not be loaded.'),
      expect.any(Error),
    );
  });
});
