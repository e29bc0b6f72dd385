import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  billingEvents,
  captureEvents,
  feedbackEvents,
  noteEvents,
  noteEventsFilter,
  reviewEvents,
  userEvents,
} from './events.js';

const declared = [
  ...Object.values(noteEvents),
  ...Object.values(reviewEvents),
  ...Object.values(captureEvents),
  ...Object.values(billingEvents),
  ...Object.values(userEvents),
  ...Object.values(feedbackEvents),
];

describe('event declarations', () => {
  it('publish each message of events.proto on the subject its comment names', () => {
    const documented = Object.fromEntries(
      ['notes', 'billing', 'users'].flatMap((service) => {
        const proto = readFileSync(
          new URL(`../../../proto/noted/${service}/v1/events.proto`, import.meta.url),
          'utf8',
        );
        return [...proto.matchAll(/^\/\/ (\w+) is published on ([\w.]+?)[,.]?\s/gm)].map((m) => [
          `noted.${service}.v1.${m[1]}`,
          m[2],
        ]);
      }),
    );
    expect(Object.keys(documented)).toHaveLength(declared.length);
    expect(
      Object.fromEntries(declared.map((event) => [event.schema.typeName, event.subject])),
    ).toEqual(documented);
  });

  it('name subjects noted.<service>.v1.<entity>.<verb> in the package of their message', () => {
    for (const { subject, schema } of declared) {
      const pkg = schema.typeName.slice(0, schema.typeName.lastIndexOf('.'));
      expect(subject).toMatch(/^noted\.\w+\.v1\.\w+\.\w+$/);
      expect(subject.startsWith(`${pkg}.`)).toBe(true);
    }
    expect(new Set(declared.map((event) => event.subject)).size).toBe(declared.length);
  });

  it('has a filter that takes every note event and no other', () => {
    const prefix = noteEventsFilter.slice(0, -1);
    for (const { subject } of Object.values(noteEvents))
      expect(subject.startsWith(prefix)).toBe(true);
    for (const { subject } of [...Object.values(reviewEvents), ...Object.values(captureEvents)])
      expect(subject.startsWith(prefix)).toBe(false);
  });

  it('decodes what it encodes', () => {
    const data = noteEvents.deleted.encode({ eventId: 'e1', noteId: 'n1', userId: 'u1' });
    expect(noteEvents.deleted.decode(data)).toMatchObject({
      eventId: 'e1',
      noteId: 'n1',
      userId: 'u1',
    });
  });
});
