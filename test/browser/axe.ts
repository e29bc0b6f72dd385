/**
 * Accessibility of the page as it is now, checked with axe-core against WCAG 2.0, 2.1 and 2.2
 * A and AA and axe's best practices. Serious and critical violations fail the check; moderate
 * and minor ones are printed as warnings.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const blocking = new Set(['serious', 'critical']);
const shownTargets = 3;

const describe = (violation: Violation) => {
  const targets = violation.nodes
    .slice(0, shownTargets)
    .map((node) => node.target.map(String).join(' >> '));
  const more =
    violation.nodes.length > shownTargets
      ? ` and ${violation.nodes.length - shownTargets} more`
      : '';
  return `${violation.id} (${violation.impact ?? 'no impact'}): ${violation.help} at ${targets.join(', ')}${more}`;
};

/**
 * Waits for the page's finite animations and transitions to end (a card fading in, colours
 * easing to a new theme): axe measures contrast on what is painted at that moment, and a colour
 * halfway through its transition is not the page's. Endless ones (a skeleton's shimmer) are
 * left alone; at most two seconds.
 */
const settleAnimations = (page: Page) =>
  page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2_000)),
    ]),
  );

/** Throws an Error listing the serious and critical violations on the page, if any. */
export const expectAccessible = async (page: Page, label: string): Promise<void> => {
  await settleAnimations(page);
  const { violations } = await new AxeBuilder({ page }).withTags(tags).analyze();
  const failing = violations.filter((violation) => blocking.has(violation.impact ?? ''));
  for (const violation of violations.filter((violation) => !failing.includes(violation))) {
    console.warn(`  warning, ${label}: ${describe(violation)}`);
  }
  if (failing.length > 0) {
    throw new Error(
      `${label}: ${failing.length} serious or critical accessibility violations\n` +
        failing.map(describe).join('\n'),
    );
  }
};
