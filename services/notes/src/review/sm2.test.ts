import { describe, expect, it } from 'vitest';
import { SM2_START, sm2, type Sm2State } from './sm2.js';

const now = new Date(Date.UTC(2027, 0, 1, 12));
const days = (n: number) => new Date(now.getTime() + n * 86_400_000);

/** The states after reviewing a fresh item with each grade in turn. */
const walk = (grades: number[]) => {
  const states: Sm2State[] = [];
  let state: Sm2State = SM2_START;
  for (const grade of grades) {
    state = sm2(state, grade, now);
    states.push(state);
  }
  return states;
};

describe('sm2', () => {
  it('schedules recalled items 1 day, then 6 days, then the interval times the ease', () => {
    const [first, second, third] = walk([4, 4, 4]);
    expect(first).toEqual({ repetitions: 1, intervalDays: 1, ease: 2.5, dueAt: days(1) });
    expect(second).toEqual({ repetitions: 2, intervalDays: 6, ease: 2.5, dueAt: days(6) });
    expect(third).toEqual({ repetitions: 3, intervalDays: 15, ease: 2.5, dueAt: days(15) });
  });

  it('raises the ease on a perfect answer and lowers it on a hard one', () => {
    expect(sm2(SM2_START, 5, now).ease).toBe(2.6);
    expect(sm2(SM2_START, 3, now).ease).toBe(2.36);
    const easy = sm2({ repetitions: 2, intervalDays: 6, ease: 2.6 }, 5, now);
    expect(easy).toMatchObject({ intervalDays: 16, ease: 2.7 });
  });

  it('starts a forgotten item over with a 1-day interval and a lower ease', () => {
    const [, , , forgot] = walk([4, 4, 4, 1]);
    expect(forgot).toEqual({ repetitions: 0, intervalDays: 1, ease: 1.96, dueAt: days(1) });
    const relearned = walk([4, 4, 4, 1, 4, 4]);
    expect(relearned.map((s) => s.intervalDays)).toEqual([1, 6, 15, 1, 1, 6]);
  });

  it('never lets the ease fall below 1.3', () => {
    const states = walk([0, 0, 0, 0, 0]);
    expect(states.map((s) => s.ease)).toEqual([1.7, 1.3, 1.3, 1.3, 1.3]);
    const recovered = sm2({ repetitions: 2, intervalDays: 10, ease: 1.3 }, 3, now);
    expect(recovered).toMatchObject({ intervalDays: 13, ease: 1.3 });
  });

  it('refuses a grade outside 0-5', () => {
    for (const grade of [-1, 6, 2.5]) {
      expect(() => sm2(SM2_START, grade, now)).toThrow(RangeError);
    }
  });
});
