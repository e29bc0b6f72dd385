/**
 * Checks of how the app looks, which behaviour tests and axe can pass while the page renders
 * unstyled (they did): the design tokens reach the built page, text is readable in both themes,
 * the toast stays inside a phone's screen, the image preview covers the viewport, the collapsed
 * sidebar shows only icons (each named), and a new page starts at its top.
 */
import type { Page } from 'playwright-core';

const fail = (message: string): never => {
  throw new Error(message);
};

/**
 * tsx compiles with esbuild's keepNames, which wraps named functions in `__name(...)`; a
 * function sent to the page needs that helper there too.
 */
const inPage = async <T>(page: Page, work: () => T): Promise<T> => {
  await page.evaluate('globalThis.__name ??= (target) => target');
  return page.evaluate(work);
};

/** The design tokens are in the page: Inter from --font-sans on the body, the accent resolves. */
export const expectDesignTokens = async (page: Page, label: string): Promise<void> => {
  const found = await page.evaluate(() => {
    const root = getComputedStyle(document.documentElement);
    return {
      fontSans: root.getPropertyValue('--font-sans').trim(),
      accent: root.getPropertyValue('--color-accent').trim(),
      bodyFont: getComputedStyle(document.body).fontFamily,
      bodyBackground: getComputedStyle(document.body).backgroundColor,
      bg: root.getPropertyValue('--color-bg').trim(),
    };
  });
  if (!found.fontSans) fail(`${label}: --font-sans is not defined: the design tokens are missing`);
  if (!found.accent) fail(`${label}: --color-accent does not resolve`);
  if (!found.bodyFont.startsWith('"Inter Variable"')) {
    fail(
      `${label}: the body's font is ${found.bodyFont}, not the token's stack (${found.fontSans})`,
    );
  }
  if (!found.bg || found.bodyBackground === 'rgba(0, 0, 0, 0)') {
    fail(`${label}: the body has no background colour from the tokens`);
  }
};

interface LowContrast {
  text: string;
  ratio: number;
  needed: number;
  color: string;
  background: string;
}

/**
 * Every piece of visible text on the page against the colour it is drawn on (its own and its
 * ancestors' backgrounds, translucent ones blended, down to the canvas): WCAG AA, 4.5:1, or
 * 3:1 for large text. Disabled controls are left out, as WCAG does.
 */
const lowContrastTexts = (): LowContrast[] => {
  type Rgba = [number, number, number, number];
  const parse = (value: string): Rgba | undefined => {
    const rgb = /^rgba?\(([^)]+)\)$/.exec(value);
    if (rgb?.[1]) {
      const [r = 0, g = 0, b = 0, a = 1] = rgb[1]
        .split(/[\s,/]+/)
        .filter(Boolean)
        .map(Number);
      return [r, g, b, a];
    }
    const srgb = /^color\(srgb ([^)]+)\)$/.exec(value);
    if (srgb?.[1]) {
      const [r = 0, g = 0, b = 0, a = 1] = srgb[1]
        .split(/[\s/]+/)
        .filter(Boolean)
        .map(Number);
      return [r * 255, g * 255, b * 255, a];
    }
    return undefined;
  };
  const over = (top: Rgba, under: Rgba): Rgba => {
    const a = top[3];
    return [
      top[0] * a + under[0] * (1 - a),
      top[1] * a + under[1] * (1 - a),
      top[2] * a + under[2] * (1 - a),
      1,
    ];
  };
  const luminance = ([r, g, b]: Rgba) => {
    const channel = (value: number) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const dark = document.documentElement.classList.contains('dark');
  const canvas: Rgba = dark ? [18, 18, 18, 1] : [255, 255, 255, 1];
  const backgroundOf = (element: Element): Rgba => {
    const layers: Rgba[] = [];
    for (let at: Element | null = element; at; at = at.parentElement) {
      const layer = parse(getComputedStyle(at).backgroundColor);
      if (layer && layer[3] > 0) layers.push(layer);
      if (layer && layer[3] >= 1) break;
    }
    return layers.reverse().reduce<Rgba>((under, top) => over(top, under), canvas);
  };

  const failures: LowContrast[] = [];
  const seen = new Set<Element>();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element || seen.has(element) || !node.textContent?.trim()) continue;
    seen.add(element);
    if (
      element.closest(
        'script, style, noscript, svg, [aria-hidden="true"], .visually-hidden, :disabled, [aria-disabled="true"], .skip-link',
      ) ||
      !element.checkVisibility({ opacityProperty: true, visibilityProperty: true })
    ) {
      continue;
    }
    const style = getComputedStyle(element);
    const color = parse(style.color);
    if (!color) continue;
    const background = backgroundOf(element);
    const foreground = over(color, background);
    const [lighter, darker] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
    const ratio = ((lighter ?? 0) + 0.05) / ((darker ?? 0) + 0.05);
    const size = Number.parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    const needed = large ? 3 : 4.5;
    if (ratio + 0.01 < needed) {
      failures.push({
        text: node.textContent.trim().slice(0, 40),
        ratio: Math.round(ratio * 100) / 100,
        needed,
        color: style.color,
        background: `rgb(${background.slice(0, 3).map(Math.round).join(', ')})`,
      });
    }
  }
  return failures;
};

/** Fails, listing them, when any visible text on the page is below WCAG AA contrast. */
export const expectReadableText = async (page: Page, label: string): Promise<void> => {
  const failures = await inPage(page, lowContrastTexts);
  if (failures.length === 0) return;
  fail(
    `${label}: ${failures.length} texts below AA contrast\n` +
      failures
        .slice(0, 8)
        .map(
          (item) =>
            `  "${item.text}" ${item.ratio}:1 (needs ${item.needed}:1), ${item.color} on ${item.background}`,
        )
        .join('\n'),
  );
};

/** Nothing on the page is wider than the window: a phone never scrolls sideways. */
export const expectNoSideScroll = async (page: Page, label: string): Promise<void> => {
  const { scrollWidth, width, widest } = await page.evaluate(() => {
    const root = document.documentElement;
    let widest = '';
    let right = root.clientWidth;
    for (const element of Array.from(document.querySelectorAll('body *'))) {
      const box = element.getBoundingClientRect();
      if (box.right > right + 1 && box.width > 0 && element.checkVisibility()) {
        right = box.right;
        widest = `${element.tagName.toLowerCase()}.${Array.from(element.classList).join('.')}`;
      }
    }
    return { scrollWidth: root.scrollWidth, width: root.clientWidth, widest };
  });
  if (scrollWidth > width + 1) {
    fail(`${label}: the page is ${scrollWidth}px wide in a ${width}px window (widest: ${widest})`);
  }
};

/** The element's box lies inside the viewport. */
export const expectInViewport = async (page: Page, selector: string, label: string) => {
  const box = await page.locator(selector).first().boundingBox();
  const viewport = page.viewportSize() ?? fail('the page has no viewport');
  if (!box) fail(`${label}: ${selector} has no box`);
  const inside =
    box !== null &&
    box.x >= 0 &&
    box.y >= 0 &&
    box.x + box.width <= viewport.width + 0.5 &&
    box.y + box.height <= viewport.height + 0.5;
  if (!inside) {
    fail(
      `${label}: ${selector} at x=${box?.x} y=${box?.y} ${box?.width}×${box?.height} ` +
        `is outside the ${viewport.width}×${viewport.height} viewport`,
    );
  }
};

/** The element is fixed and covers the whole viewport (a full-screen overlay). */
export const expectCoversViewport = async (page: Page, selector: string, label: string) => {
  const { box, position } = await page.locator(selector).evaluate((element) => ({
    box: element.getBoundingClientRect().toJSON() as DOMRect,
    position: getComputedStyle(element).position,
  }));
  const viewport = page.viewportSize() ?? fail('the page has no viewport');
  if (
    position !== 'fixed' ||
    box.x > 0.5 ||
    box.y > 0.5 ||
    box.width < viewport.width - 1 ||
    box.height < viewport.height - 1
  ) {
    fail(
      `${label}: ${selector} is ${position} at ${box.x},${box.y} ${box.width}×${box.height}, ` +
        `not a fixed overlay over the ${viewport.width}×${viewport.height} viewport`,
    );
  }
};

/**
 * The collapsed sidebar is a rail of icons: no entry shows text or spills over the rail, every
 * entry still has a name for assistive technology, and each icon sits in the middle.
 */
export const expectIconRail = async (page: Page): Promise<void> => {
  await page.evaluate('globalThis.__name ??= (target) => target');
  const entries = await page
    .getByRole('complementary', { name: 'Sidebar' })
    .locator('a, button')
    .evaluateAll((elements) =>
      elements.map((element) => {
        const box = element.getBoundingClientRect();
        const icon = element.querySelector('svg')?.getBoundingClientRect();
        const label =
          element.getAttribute('aria-label') ??
          element.getAttribute('title') ??
          element.textContent ??
          '';
        // Text that is drawn: not inside a visually hidden box (clipped to nothing, 1×1).
        const clipped = (from: Element | null) => {
          for (let at = from; at && at !== element.parentElement; at = at.parentElement) {
            const style = getComputedStyle(at);
            const box = at.getBoundingClientRect();
            if (style.clipPath !== 'none' || style.clip !== 'auto') return true;
            if (box.width <= 1 && style.overflow === 'hidden') return true;
          }
          return false;
        };
        const shown: string[] = [];
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (node.textContent?.trim() && !clipped(node.parentElement)) {
            shown.push(node.textContent.trim());
          }
        }
        return {
          label: label.trim(),
          shownText: shown.join(' '),
          overflows: element.scrollWidth > element.clientWidth + 1,
          iconOffset: icon ? Math.abs(icon.x + icon.width / 2 - (box.x + box.width / 2)) : 0,
          railWidth: element.closest('aside')?.getBoundingClientRect().width ?? 0,
          right: box.right,
          railRight: element.closest('aside')?.getBoundingClientRect().right ?? 0,
        };
      }),
    );
  if (entries.length < 6) fail(`the collapsed sidebar has ${entries.length} entries`);
  for (const entry of entries) {
    if (!entry.label) fail('an entry of the collapsed sidebar has no accessible name');
    if (entry.railWidth > 80) fail(`the collapsed sidebar is ${entry.railWidth}px wide`);
    if (entry.shownText) {
      fail(`the collapsed sidebar shows the text "${entry.shownText}" for ${entry.label}`);
    }
    if (entry.overflows || entry.right > entry.railRight + 0.5) {
      fail(`${entry.label} spills over the collapsed sidebar`);
    }
    if (entry.iconOffset > 2) {
      fail(`the icon of ${entry.label} is ${entry.iconOffset}px off the middle of its entry`);
    }
  }
};
