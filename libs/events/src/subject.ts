/**
 * NATS subject matching: tokens split on `.`, `*` matches one token, `>` (last) matches one
 * or more. Used by the in-process bus so filters mean what they mean on JetStream.
 */
export const subjectMatches = (filter: string, subject: string): boolean => {
  const wanted = filter.split('.');
  const given = subject.split('.');
  for (let i = 0; i < wanted.length; i++) {
    const token = wanted[i];
    if (token === '>') return i === wanted.length - 1 && given.length > i;
    if (i >= given.length) return false;
    if (token !== '*' && token !== given[i]) return false;
  }
  return wanted.length === given.length;
};

const tokenPattern = /^[^\s.*>]+$/;

/** A subject to publish on: dot-separated tokens, no wildcards, no whitespace. */
export const assertPublishSubject = (subject: string): void => {
  if (!subject.split('.').every((token) => tokenPattern.test(token))) {
    throw new Error(`invalid event subject ${JSON.stringify(subject)}`);
  }
};

/** A subscription filter: like a subject, with `*` tokens and a final `>` allowed. */
export const assertFilterSubject = (filter: string): void => {
  const tokens = filter.split('.');
  const valid = tokens.every(
    (token, i) =>
      tokenPattern.test(token) || token === '*' || (token === '>' && i === tokens.length - 1),
  );
  if (!valid) throw new Error(`invalid subject filter ${JSON.stringify(filter)}`);
};
