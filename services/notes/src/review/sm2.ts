/** A note's SM-2 state (SuperMemo 2, Wozniak 1987). */
export interface Sm2State {
  repetitions: number;
  intervalDays: number;
  ease: number;
}

export interface Sm2Result extends Sm2State {
  dueAt: Date;
}

export const SM2_START: Sm2State = { repetitions: 0, intervalDays: 0, ease: 2.5 };
export const SM2_MIN_EASE = 1.3;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * One SM-2 step for a review graded 0-5. A grade of 3 or more counts as recalled: the
 * interval goes 1 day, 6 days, then the previous interval times the ease (the ease before
 * this review's adjustment, as SuperMemo 2 describes it). Below 3 the item starts over with
 * a 1-day interval. The ease moves by the SM-2 formula and never drops below 1.3.
 */
export const sm2 = (state: Sm2State, grade: number, now: Date): Sm2Result => {
  if (!Number.isInteger(grade) || grade < 0 || grade > 5) {
    throw new RangeError(`An SM-2 grade is an integer from 0 to 5, not ${grade}`);
  }
  let repetitions: number;
  let intervalDays: number;
  if (grade >= 3) {
    intervalDays =
      state.repetitions === 0
        ? 1
        : state.repetitions === 1
          ? 6
          : Math.max(1, Math.round(state.intervalDays * state.ease));
    repetitions = state.repetitions + 1;
  } else {
    repetitions = 0;
    intervalDays = 1;
  }
  const miss = 5 - grade;
  const ease = Math.max(
    SM2_MIN_EASE,
    Math.round((state.ease + 0.1 - miss * (0.08 + miss * 0.02)) * 1000) / 1000,
  );
  return {
    repetitions,
    intervalDays,
    ease,
    dueAt: new Date(now.getTime() + intervalDays * DAY_MS),
  };
};

/** The grade a remembered / forgot answer stands for. */
export const outcomeGrades = { remembered: 4, forgot: 1 } as const;
