/**
 * The file name a download's Content-Disposition gives: the UTF-8 `filename*` (RFC 5987) when
 * there is one, else the plain `filename`, else `fallback`.
 */
export const fileNameOf = (response: Pick<Response, 'headers'>, fallback: string): string => {
  const disposition = response.headers.get('content-disposition') ?? '';
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim());
    } catch {
      // A malformed escape: the plain name below is still there.
    }
  }
  const plain = /filename\s*=\s*"((?:[^"\\]|\\.)*)"|filename\s*=\s*([^;]+)/i.exec(disposition);
  const name = (plain?.[1] ?? plain?.[2])?.replace(/\\(.)/g, '$1').trim();
  return name || fallback;
};

/** Hands a file to the browser's downloads under `name`. */
export const saveFile = (file: Blob, name: string) => {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a moment later: some browsers read the address after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};
