import {
  contentFiles,
  parsePostListPath,
  type Navigation,
  type PagePayload,
  type PostList,
  type SiteLanguage,
} from './model';
import type { SiteView } from '../pages/SitePage';

/** The header a preview token travels in, and in which the gateway says whether it took it. */
export const previewHeader = 'x-noted-preview';
const previewTokenKey = 'notedPreviewToken';

export type PreviewState = 'off' | 'on' | 'refused';

/**
 * Preview mode: `?preview=<token>` in the address stores the token for the next visits,
 * `?preview=off` forgets it; answers the token stored, if any.
 */
export const takePreviewToken = (
  search: string,
  storage:
    Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined = globalThis.localStorage,
): string | undefined => {
  const asked = new URLSearchParams(search).get('preview');
  try {
    if (asked === 'off') storage?.removeItem(previewTokenKey);
    else if (asked) storage?.setItem(previewTokenKey, asked);
    return storage?.getItem(previewTokenKey) ?? (asked && asked !== 'off' ? asked : undefined);
  } catch {
    return asked && asked !== 'off' ? asked : undefined;
  }
};

export const forgetPreviewToken = (
  storage: Pick<Storage, 'removeItem'> | undefined = globalThis.localStorage,
) => {
  try {
    storage?.removeItem(previewTokenKey);
  } catch {
    // Storage refused: the token was never kept either.
  }
};

export class ContentUnavailable extends Error {
  constructor(file: string, status: number) {
    super(`The content ${file} could not be read (HTTP ${status})`);
    this.name = 'ContentUnavailable';
  }
}

interface Fetched<T> {
  value: T | undefined;
  preview: PreviewState;
}

/**
 * One file of the content. A 404 is "not found"; so is an answer that is not JSON (an HTML
 * page from a proxy or a fallback route): the spec's "a content fetch that returns an HTML
 * page is treated as Not found".
 */
export const fetchContent = async <T>(
  file: string,
  token: string | undefined,
  fetcher: typeof fetch = globalThis.fetch,
): Promise<Fetched<T>> => {
  const response = await fetcher(`/content/${file}`, {
    headers: token ? { [previewHeader]: token } : {},
  });
  const preview = (response.headers.get(previewHeader) as PreviewState | null) ?? 'off';
  if (response.status === 404) return { value: undefined, preview };
  if (!response.ok) throw new ContentUnavailable(file, response.status);
  if (!(response.headers.get('content-type') ?? '').includes('application/json')) {
    return { value: undefined, preview };
  }
  return { value: (await response.json()) as T, preview };
};

export interface LoadedView {
  view: SiteView;
  navigation: Navigation;
  preview: PreviewState;
}

/** A path without its trailing slash ('/blog/' is '/blog'). */
export const normalPath = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/** Everything a path of the site shows, fetched as the browser would: payload, list, navigation. */
export const loadView = async (
  path: string,
  lang: SiteLanguage,
  token: string | undefined,
  fetcher: typeof fetch = globalThis.fetch,
): Promise<LoadedView> => {
  const at = normalPath(path);
  const list = parsePostListPath(at);
  const [navigation, content] = await Promise.all([
    fetchContent<Navigation>(contentFiles.navigation(lang), token, fetcher),
    list
      ? fetchContent<PostList>(contentFiles.posts(lang, list.page, list.tag), token, fetcher)
      : fetchContent<PagePayload>(contentFiles.page(lang, at), token, fetcher),
  ]);
  const view: SiteView = !content.value
    ? { kind: 'notFound', path: at }
    : list
      ? { kind: 'list', list: content.value as PostList }
      : { kind: 'page', page: content.value as PagePayload };
  return {
    view,
    navigation: navigation.value ?? { guide: [], tags: [], pages: [] },
    preview: content.preview,
  };
};
