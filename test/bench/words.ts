/** The everyday words benchmark notes are made of. */
export const words = (
  'meeting project idea garden recipe travel budget review draft launch design ' +
  'research customer feedback roadmap invoice doctor family weekend concert book ' +
  'movie kitchen bicycle language lesson workout river mountain market coffee ' +
  'keyboard planet window summer winter letter answer question morning evening'
).split(' ');
