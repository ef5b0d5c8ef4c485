/**
 * Words too common to say what a tool does: English function words plus the filler of a request
 * ("can you please help me…"). One global list, the same for every catalog.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing done down during each either else ever few for from ' +
    'further had has have having he her here hers herself him himself his how i if in into is it its itself ' +
    'just let lets like may me might mine more most much must my myself no nor not now of off on once only ' +
    'or other our ours ourselves out over own please same shall she should so some such than that the their ' +
    'theirs them themselves then there these they this those through thus to too under until up upon us very ' +
    'was we were what whatever when where whether which while who whom whose why will with within without ' +
    'would yes yet you your yours yourself yourselves also etc eg ie im ive id youre dont cant wont s t ' +
    'want wants need needs help would hi hello hey thanks thank could kindly'
  ).split(' '),
);
