/**
 * A large account for the shots of many notes (the mind map at 50 and 500, the list at 120):
 * notes on a dozen topics, each tagged with its topic (a few with a second one), most linked
 * to earlier notes of their topic by `[[Title]]` (some to another topic's), the rest not
 * linked, tagged or not, and a few pinned. The same count gives the same notes.
 */

/** Calls the API as the account; answers the parsed JSON body. */
export type BulkApi = <T>(method: string, route: string, body?: unknown) => Promise<T>;

interface Topic {
  tag: string;
  subjects: string[];
  sentences: string[];
}

const topics: Topic[] = [
  {
    tag: 'work',
    subjects: ['Q3 roadmap', 'Hiring plan', 'Team offsite', 'Budget review', '1:1 with Grace'],
    sentences: [
      'Priorities for the quarter: fewer projects, each with one owner.',
      'Grace wants the numbers before Friday; the draft is in the shared folder.',
      'We agreed to move the launch by two weeks rather than cut the scope.',
    ],
  },
  {
    tag: 'cooking',
    subjects: ['Sourdough starter', 'Weeknight dal', 'Miso glazed aubergine', 'Pantry staples'],
    sentences: [
      'Feed the starter at 1:1:1 and keep it at 24 °C; it doubles in about six hours.',
      'Toast the cumin first, then the onions, low and slow until golden.',
      'Buy: lentils, coconut milk, ginger, a bag of limes.',
    ],
  },
  {
    tag: 'travel',
    subjects: ['Lisbon in May', 'Packing list', 'Japan rail pass', 'Kyoto temples'],
    sentences: [
      'Flights booked; the hotel is a ten-minute walk from Rossio.',
      'Passport, adapter, two paperbacks, the good walking shoes.',
      'The rail pass pays for itself after one Tokyo–Kyoto return.',
    ],
  },
  {
    tag: 'books',
    subjects: ['How to Take Smart Notes', 'Thinking in Systems', 'The Pragmatic Programmer'],
    sentences: [
      'A note should make sense on its own, a year from now, to a stranger.',
      'Stocks and flows: the bathtub fills as long as inflow beats outflow.',
      'Quote: “Don’t live with broken windows.”',
    ],
  },
  {
    tag: 'health',
    subjects: ['Running plan', 'Sleep log', 'Physio exercises', 'Dentist'],
    sentences: [
      'Three easy runs and one long run a week; add ten percent at most.',
      'Lights out by eleven, no screens in the last half hour.',
      'Ten calf raises each side, twice a day, slowly on the way down.',
    ],
  },
  {
    tag: 'garden',
    subjects: ['Tomato seedlings', 'Compost bin', 'Balcony herbs', 'Rose pruning'],
    sentences: [
      'Pot on the seedlings once the second pair of leaves shows.',
      'Greens and browns about half and half; turn it every fortnight.',
      'Basil hates the wind: move it behind the glass.',
    ],
  },
  {
    tag: 'finance',
    subjects: ['Tax return 2024', 'Monthly budget', 'Pension options', 'Car insurance'],
    sentences: [
      'Receipts for the home office go in the blue folder.',
      'Rent, bills and savings leave on the first; the rest is for living.',
      'Compare the fees, not the past returns.',
    ],
  },
  {
    tag: 'ideas',
    subjects: ['Voice memos to tasks', 'A map of my notes', 'Weekly digest email'],
    sentences: [
      'Record on the walk home, let the app pull out the todos.',
      'What if every link were a line you could follow?',
      'One email on Sunday: what I wrote, what I left open.',
    ],
  },
  {
    tag: 'learning',
    subjects: ['Rust ownership', 'Spanish verbs', 'Statistics refresher', 'Piano scales'],
    sentences: [
      'A value has one owner; borrowing lends it without giving it away.',
      'Ser for what something is, estar for how it is right now.',
      'The median is robust; the mean is not.',
    ],
  },
  {
    tag: 'home',
    subjects: ['Kitchen renovation', 'Move checklist', 'Boiler service', 'Bookshelf plans'],
    sentences: [
      'The plumber comes Tuesday between eight and twelve.',
      'Measure the alcove twice: 182 cm wide, 240 cm high.',
      'Quotes from three builders; the second one is the clearest.',
    ],
  },
  {
    tag: 'meetings',
    subjects: ['Design review', 'Sprint retro', 'Board update', 'Standup notes'],
    sentences: [
      'Decision: capture first, organise later.',
      'What went well: the release. What did not: the estimates.',
      'Action items are at the bottom, each with a name.',
    ],
  },
  {
    tag: '生活',
    subjects: ['周末计划', '搬家清单', '读书笔记', '家庭聚餐'],
    sentences: [
      '去图书馆还书，买菜，给奶奶打电话。',
      '纸箱、胶带、记号笔，先收拾书房。',
      '这本书讲的是如何把零散的想法连成体系。',
    ],
  },
];

const shapes = [
  (s: string) => s,
  (s: string) => `${s}: open questions`,
  (s: string) => `${s} checklist`,
  (s: string) => `Notes on ${s}`,
  (s: string) => `${s} (follow-up)`,
  (s: string) => `${s}, second pass`,
  (s: string) => `${s} ideas`,
  (s: string) => `${s} — summary`,
];

const untaggedTitles = [
  'Scratch',
  'Phone numbers',
  'Gift ideas',
  'Wi-Fi password for guests',
  'Things to ask the landlord',
  'Podcast recommendations',
  'Quick thought',
  'Parking spot',
];

/** A fixed-seed generator, so the same count gives the same notes. */
const random = (seed: number) => {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
};

interface Planned {
  title: string;
  tags: string[];
  note: string;
  createdAt: string;
  pinned: boolean;
}

/** The notes of an account of `count`, in the order they are created. */
export const bulkNotes = (count: number): Planned[] => {
  const next = random(count);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const used = new Map<string, number>();
  const linkable = new Map<string, string[]>();
  const notes: Planned[] = [];
  const now = Date.UTC(2026, 10, 30);
  for (let index = 0; index < count; index += 1) {
    const roll = next();
    const untagged = roll < 0.08;
    const linked = roll >= 0.3;
    const topic = topics[index % topics.length] as Topic;
    let title: string;
    if (untagged) {
      const base = untaggedTitles[index % untaggedTitles.length] as string;
      const seen = used.get(base) ?? 0;
      used.set(base, seen + 1);
      title = seen ? `${base} ${seen + 1}` : base;
    } else {
      const subject = pick(topic.subjects);
      const seen = used.get(subject) ?? 0;
      used.set(subject, seen + 1);
      const shape = shapes[seen % shapes.length] as (s: string) => string;
      title = seen < shapes.length ? shape(subject) : `${shape(subject)} ${seen}`;
    }
    const tags = untagged ? [] : [topic.tag];
    if (!untagged && next() < 0.15) tags.push(pick(topics).tag);
    const lines = [pick(topic.sentences), pick(topic.sentences)];
    if (next() < 0.3) lines.push('', `- [ ] ${pick(topic.sentences)}`, '- [x] Write it down');
    const own = linkable.get(topic.tag) ?? [];
    if (linked && !untagged && own.length > 0) {
      const targets = new Set<string>();
      const wanted = 1 + Math.floor(next() * 3);
      for (let n = 0; n < wanted; n += 1) {
        const others = next() < 0.15 ? (linkable.get(pick(topics).tag) ?? own) : own;
        // Earlier notes of a topic are linked more, as hubs are.
        const at = Math.floor(others.length * next() * next());
        const target = others[at];
        if (target) targets.add(target);
      }
      lines.push('', `See ${[...targets].map((target) => `[[${target}]]`).join(' and ')}.`);
    }
    if (linked && !untagged) linkable.set(topic.tag, [...own, title]);
    notes.push({
      title,
      tags: [...new Set(tags)],
      note: lines.join('\n'),
      createdAt: new Date(now - (count - index) * 7 * 3_600_000).toISOString(),
      pinned: index % 97 === 5,
    });
  }
  return notes;
};

/** Notes created at the same time: links only name notes of earlier waves, already saved. */
const WAVE = 6;

/** Creates the account's notes, a few at a time; answers how many were made. */
export const seedBulk = async (api: BulkApi, count: number): Promise<number> => {
  const planned = bulkNotes(count);
  for (let start = 0; start < planned.length; start += WAVE) {
    await Promise.all(
      planned.slice(start, start + WAVE).map(async ({ pinned, ...note }) => {
        const created = await api<{ id: string }>('POST', '/api/note/create/direct', note);
        if (pinned) await api('POST', '/api/note/pin', { noteId: created.id });
      }),
    );
  }
  return planned.length;
};
