import type { ExportNote } from '../model.js';
import { mostlyCjk } from './markdown.js';

/** The few words the renderers print, in English or Chinese. */
export interface Labels {
  locale: string;
  untitled: string;
  created: (date: string) => string;
  updated: (date: string) => string;
  missingImage: string;
  continues: string;
}

const EN: Labels = {
  locale: 'en',
  untitled: 'Untitled',
  created: (date) => `Created ${date}`,
  updated: (date) => `Updated ${date}`,
  missingImage: 'Image not included',
  continues: 'Continues in Noted',
};

const ZH: Labels = {
  locale: 'zh-CN',
  untitled: '无标题',
  created: (date) => `创建于 ${date}`,
  updated: (date) => `更新于 ${date}`,
  missingImage: '图片未包含',
  continues: '在 Noted 中继续阅读',
};

/** The locale asked for, or the note's own language when none was. */
export const labelsFor = (note: Pick<ExportNote, 'title' | 'body'>, locale?: string): Labels => {
  if (locale) return locale.toLowerCase().startsWith('zh') ? { ...ZH, locale } : { ...EN, locale };
  return mostlyCjk(`${note.title}\n${note.body}`) ? ZH : EN;
};

/** A day as people write it in the labels' language ("3 March 2026", "2026年3月3日"). */
export const formatDay = (date: Date, labels: Labels, timeZone = 'UTC'): string => {
  try {
    return new Intl.DateTimeFormat(labels.locale, { dateStyle: 'long', timeZone }).format(date);
  } catch {
    return date.toISOString().slice(0, 10);
  }
};

/** "Created 3 March 2026 · Updated 5 March 2026", the update left out when on the same day. */
export const noteDates = (
  note: Pick<ExportNote, 'createdAt' | 'updatedAt'>,
  labels: Labels,
  timeZone = 'UTC',
): string => {
  const created = formatDay(new Date(note.createdAt), labels, timeZone);
  const updated = formatDay(new Date(note.updatedAt), labels, timeZone);
  const parts = [labels.created(created)];
  if (updated !== created) parts.push(labels.updated(updated));
  return parts.join('  ·  ');
};
