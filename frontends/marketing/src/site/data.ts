import type { Navigation, SiteLanguage } from '../content/model';
import type { SiteView } from '../pages/SitePage';

/** What a prerendered page carries for the script that hydrates it (a JSON script element). */
export interface SiteData {
  lang: SiteLanguage;
  view: SiteView;
  navigation: Navigation;
}

export const siteDataId = 'site-data';

/** As the text of a <script type="application/json">: no `</script>` or `<!--` can close it. */
export const serializeSiteData = (data: SiteData) =>
  JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
