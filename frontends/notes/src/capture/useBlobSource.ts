import { useEffect, useRef } from 'react';

/**
 * A ref for an <img> or <audio> that shows `blob` through an object URL, made when the blob
 * comes and revoked when it goes (or the element does).
 */
export function useBlobSource<T extends HTMLImageElement | HTMLMediaElement>(blob: Blob) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const url = URL.createObjectURL(blob);
    if (ref.current) ref.current.src = url;
    return () => URL.revokeObjectURL(url);
  }, [blob]);
  return ref;
}
